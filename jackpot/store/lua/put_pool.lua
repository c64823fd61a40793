-- put_pool: create a pool, or change its parameters without moving money (docs/RULES.md §4).
--
-- KEYS[1] {ns}/pool/<id>  hash   KEYS[2] {ns}/pool/<id>/journal  stream (id = seq-0)
-- KEYS[3] {ns}/pools      set of pool ids   KEYS[4] {ns}/counters  hash (clock)
-- ARGV[1] pool id  ARGV[2] reset (cents)  ARGV[3] rate_bp  ARGV[4] reserve_rate_bp
-- ARGV[5] cap (cents, -1: none)  ARGV[6] policy  ARGV[7] who
-- ARGV[8] '' for a PUT, or the pool's staged change (its stored JSON) to apply: the values
--   ARGV[2..6] are that change's, ARGV[7] who applies it, ARGV[9] the reason
-- ARGV[10] public: '1' or '0' (shown on signs and the public read or not), '' to keep it;
--   not a game parameter, so it may change while the pool runs
-- ARGV[11] level ('hand' | 'must_hit_by' | 'mystery')  ARGV[12], ARGV[13] a mystery level's
--   trigger_low, trigger_high ('' for none)  ARGV[14] qualifying_wager (cents)
-- ARGV[15] a trigger level: a trigger drawn in Python (jackpot/domain/triggers.py) as JSON
--   {cents, salt, commitment, low, high}, over the level's whole range (`span`, ARGV[16]
--   'low:high'); '' for a hand level. It is armed only when the level has none (it is
--   created, or a hand level becomes a trigger level), and only while the meter is below
--   the range's lowest trigger: a draw is never narrowed by the meter ('too_narrow'
--   otherwise). A trigger held stays armed until won (D228): a change of the type, range,
--   reset, ceiling or qualifying wager governs the draws from the level's next hit on
--   (`trigger_span`), and may not put the ceiling below the armed draw's top
--   (`armed_high`: 'in_force'). Only a level that becomes a hand level reveals it
--   (journal `trigger_revealed`).
-- ARGV[17] the pool's display name (D280): '' to keep it, '=' and the name to set it ('='
--   alone removes it); like `public`, not a game parameter: it may change while the pool runs
-- ARGV[18] the name's keys (Python, jackpot.domain.names.skeletons of the name with its spaces
--   collapsed), one a line: what another name that reads the same shares (case, compatibility
--   forms and look-alike letters aside); kept beside the name as `name_keys`
-- A name set is unique among the link group's pools not retired (D290): it shares no key with
--   another's (a pool named before keys were kept: its name with its spaces collapsed, ASCII
--   case aside), checked here, where it is written, so that two PUTs racing cannot both take
--   it ({"name_taken", pool, its name} otherwise)
-- A PUT changes the parameters only while the pool is suspended (NY 5321.18(b)(4): no
-- parameter change while the link is in operation); a running pool's change is staged
-- (stage_pool.lua) and applied here once the pool is suspended or its time has come.
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created"} | {"updated"} | {"unchanged"} | {"cap_below_value", value_cents}
--   | {"too_narrow", value_cents} (the meter has reached the lowest trigger of the range a
--      trigger must be armed over) | {"in_force", high_cents} (a ceiling below the top of
--      the armed draw) | {"misdrawn"} (the trigger offered is not drawn over the range)
--   | {"name_taken", pool, name} (another live pool of the group has a name that reads the same)
--   | {"running"} (a PUT's change to a running pool) | {"stale"} (the staged change is gone
--   or another one)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local UNIT = 10000
local pool, journal = KEYS[1], KEYS[2]
local names = {'reset', 'rate_bp', 'reserve_rate_bp', 'cap', 'policy', 'level', 'trigger_low',
  'trigger_high', 'qualifying_wager'}
local wanted = {ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[11], ARGV[12], ARGV[13],
  ARGV[14]}
local unset = {[6] = 'hand', [7] = '', [8] = '', [9] = '0'}  -- a pool from before levels had types
local candidate = ARGV[15] ~= '' and cjson.decode(ARGV[15]) or nil
local triggered = ARGV[11] ~= 'hand'  -- a must-hit-by or mystery level
local span = ARGV[16]
local now, who = string.format('%d', clock(KEYS[4])), ARGV[7]

local staged = ARGV[8]
local shown = redis.call('HGET', pool, 'public')
local public = ARGV[10] ~= '' and ARGV[10] or (shown or '1')
local named = redis.call('HGET', pool, 'name') or ''  -- its display name now
local label = ARGV[17] ~= '' and string.sub(ARGV[17], 2) or named
if label ~= '' and label ~= named then
  local function folded(text) return string.lower((string.gsub(text, '%s+', ' '))) end
  local plain, mine = folded(label), {}
  for k in string.gmatch(ARGV[18], '[^\n]+') do mine[k] = true end
  local prefix = string.sub(pool, 1, #pool - #ARGV[1])
  for _, other in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if other ~= ARGV[1] then
      local it = redis.call('HMGET', prefix .. other, 'name', 'state', 'name_keys')
      if it[1] and it[1] ~= '' and it[2] ~= 'retired' then
        local clash = folded(it[1]) == plain
        for k in string.gmatch(it[3] or '', '[^\n]+') do clash = clash or mine[k] == true end
        if clash then return {'name_taken', other, it[1]} end
      end
    end
  end
end
-- the name's keys, written with it when it is set (removed with it)
local keyed = ARGV[17] ~= '' and {'name_keys', ARGV[18]} or {}
local function entry(kind)
  local fields = {'type', kind, 'ts', now, 'who', who}
  for i, name in ipairs(names) do
    table.insert(fields, name)
    table.insert(fields, wanted[i])
  end
  table.insert(fields, 'public')
  table.insert(fields, public)
  if label ~= '' or named ~= '' then  -- a pool that never had a name journals none
    table.insert(fields, 'name')
    table.insert(fields, label)
  end
  if staged ~= '' then
    local change = cjson.decode(staged)
    for _, text in ipairs({'staged_by', change.who, 'reason', ARGV[9]}) do
      table.insert(fields, text)
    end
  end
  return fields
end

-- the level's trigger: revealed when it gives way (fields for its journal entry), and armed
local function reveal(held, why)
  return {'type', 'trigger_revealed', 'ts', now, 'who', who, 'draw', held[4],
    'commitment', held[3], 'trigger_cents', held[1], 'salt', held[2], 'why', why,
    'value_units', held[5], 'reserve_units', held[6]}
end
local function arm(value, reserve, draw, seq)
  redis.call('HSET', pool, 'trigger', string.format('%d', candidate.cents),
    'trigger_salt', candidate.salt, 'commitment', candidate.commitment, 'draw', draw,
    'trigger_span', span, 'armed_high', string.format('%d', candidate.high), 'armed_at', now,
    'armed_seq', seq)
  return {'type', 'trigger_armed', 'ts', now, 'who', who, 'draw', draw,
    'commitment', candidate.commitment, 'low', string.format('%d', candidate.low),
    'high', string.format('%d', candidate.high), 'value_units', value, 'reserve_units', reserve}
end
-- a trigger is drawn over the level's whole range, and armed only while the meter is below
-- it: a range the meter has entered would be a narrower draw, one a cent above the meter a
-- certain win (D228)
local function misdrawn(value)
  local low, high = string.match(span, '^(%d+):(%d+)$')
  local cents = math.floor(tonumber(value) / UNIT)
  if cents >= tonumber(low) then return {'too_narrow', string.format('%d', cents)} end
  if not candidate or candidate.low ~= tonumber(low) or candidate.high ~= tonumber(high) then
    return {'misdrawn'}
  end
  return nil
end

local current = redis.call('HMGET', pool, unpack(names))
if not current[1] then
  local value = string.format('%d', tonumber(ARGV[2]) * UNIT)
  if triggered then
    local wrong = misdrawn(value)
    if wrong then return wrong end
  end
  redis.call('HSET', pool, 'reset', ARGV[2], 'rate_bp', ARGV[3], 'reserve_rate_bp', ARGV[4],
    'cap', ARGV[5], 'policy', ARGV[6], 'level', ARGV[11], 'trigger_low', ARGV[12],
    'trigger_high', ARGV[13], 'qualifying_wager', ARGV[14], 'value', value, 'reserve', '0',
    'seq', '1', 'reset_initial_units', value, 'in_cents', '0', 'bets', '0',
    'contrib_units', '0', 'overflow_units', '0', 'hits', '0', 'won_cents', '0',
    'seed_units', '0', 'adjust_units', '0', 'void_units', '0', 'created', now, 'version', '1',
    'public', public, 'name', label, unpack(keyed))
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('HSET', KEYS[4], 'clock', now)
  local fields = entry('created')
  table.insert(fields, 'value_units')
  table.insert(fields, value)
  local head = append(journal, '1', '', fields)
  local seq = '1'
  if triggered then
    seq = '2'
    head = append(journal, seq, head, arm(value, '0', '1', seq))
  end
  redis.call('HSET', pool, 'head', head, 'seq', seq)
  return {'created'}
end
for i, default in pairs(unset) do current[i] = current[i] or default end

if staged ~= '' and redis.call('HGET', pool, 'staged') ~= staged then return {'stale'} end
local same = true
for i = 1, #names do
  if current[i] ~= wanted[i] then same = false end
end
if same and public == (shown or '1') and label == named then
  if staged ~= '' then redis.call('HDEL', pool, 'staged') end
  return {'unchanged'}
end
local link = redis.call('HGET', pool, 'state') or 'running'
if not same and staged == '' and link == 'running' then return {'running'} end

local cap = tonumber(ARGV[5])
local books = redis.call('HMGET', pool, 'value', 'reserve', 'trigger', 'trigger_salt',
  'commitment', 'draw', 'trigger_span', 'seq', 'head', 'armed_high')
local value = tonumber(books[1])
if cap >= 0 and cap * UNIT < value then
  return {'cap_below_value', string.format('%d', math.floor(value / UNIT))}
end
-- a trigger held stays armed until won, whatever the change (D228): no change can re-draw
-- the current cycle's trigger, narrow it to the meter or otherwise steer it. The new range
-- governs the draws from the next hit; a ceiling below the armed draw's top would put its
-- trigger out of the meter's reach (and break a must-hit-by's promise): refused.
local held = books[3] and {books[3], books[4], books[5], books[6] or '0', books[1], books[2]}
local rearm = triggered and not held
if rearm then
  local wrong = misdrawn(books[1])
  if wrong then return wrong end
elseif held and triggered and cap >= 0 then
  local top = tonumber(books[10] or '') or tonumber(string.match(books[7] or '', ':(%d+)$'))
  if top and cap < top then return {'in_force', string.format('%d', top)} end
end
redis.call('HSET', KEYS[4], 'clock', now)
redis.call('HSET', pool, 'reset', ARGV[2], 'rate_bp', ARGV[3], 'reserve_rate_bp', ARGV[4],
  'cap', ARGV[5], 'policy', ARGV[6], 'level', ARGV[11], 'trigger_low', ARGV[12],
  'trigger_high', ARGV[13], 'qualifying_wager', ARGV[14], 'public', public, 'name', label,
  unpack(keyed))
redis.call('HINCRBY', pool, 'version', 1)
if staged ~= '' then redis.call('HDEL', pool, 'staged') end
local seq, head = tonumber(books[8]) + 1, books[9] or ''
head = append(journal, string.format('%d', seq), head, entry('config'))
if held and not triggered then
  seq = seq + 1
  head = append(journal, string.format('%d', seq), head,
    reveal(held, 'the level is won by hands now'))
  redis.call('HDEL', pool, 'trigger', 'trigger_salt', 'commitment', 'trigger_span', 'armed_at',
    'armed_seq', 'armed_high')
elseif held then  -- kept: the next draw, at the level's next hit, is over the new range
  redis.call('HSET', pool, 'trigger_span', span)
end
if rearm then
  seq = seq + 1
  head = append(journal, string.format('%d', seq), head,
    arm(books[1], books[2], string.format('%d', tonumber(books[6] or '0') + 1),
      string.format('%d', seq)))
end
redis.call('HSET', pool, 'seq', string.format('%d', seq), 'head', head)
return {'updated'}
