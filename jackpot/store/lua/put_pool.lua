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
-- A PUT changes the parameters only while the pool is suspended (NY 5321.18(b)(4): no
-- parameter change while the link is in operation); a running pool's change is staged
-- (stage_pool.lua) and applied here once the pool is suspended or its time has come.
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created"} | {"updated"} | {"unchanged"} | {"cap_below_value", value_cents}
--   | {"running"} (a PUT's change to a running pool) | {"stale"} (the staged change is gone
--   or another one)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local UNIT = 10000
local pool, journal = KEYS[1], KEYS[2]
local names = {'reset', 'rate_bp', 'reserve_rate_bp', 'cap', 'policy'}
local wanted = {ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]}
local now, who = string.format('%d', clock(KEYS[4])), ARGV[7]

local staged = ARGV[8]
local shown = redis.call('HGET', pool, 'public')
local public = ARGV[10] ~= '' and ARGV[10] or (shown or '1')
local function entry(kind)
  local fields = {'type', kind, 'ts', now, 'who', who}
  for i, name in ipairs(names) do
    table.insert(fields, name)
    table.insert(fields, wanted[i])
  end
  table.insert(fields, 'public')
  table.insert(fields, public)
  if staged ~= '' then
    local change = cjson.decode(staged)
    for _, text in ipairs({'staged_by', change.who, 'reason', ARGV[9]}) do
      table.insert(fields, text)
    end
  end
  return fields
end

local current = redis.call('HMGET', pool, unpack(names))
if not current[1] then
  local value = string.format('%d', tonumber(ARGV[2]) * UNIT)
  redis.call('HSET', pool, 'reset', ARGV[2], 'rate_bp', ARGV[3], 'reserve_rate_bp', ARGV[4],
    'cap', ARGV[5], 'policy', ARGV[6], 'value', value, 'reserve', '0', 'seq', '1',
    'reset_initial_units', value, 'in_cents', '0', 'bets', '0', 'contrib_units', '0',
    'overflow_units', '0', 'hits', '0', 'won_cents', '0', 'seed_units', '0',
    'adjust_units', '0', 'void_units', '0', 'created', now, 'version', '1', 'public', public)
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('HSET', KEYS[4], 'clock', now)
  local fields = entry('created')
  table.insert(fields, 'value_units')
  table.insert(fields, value)
  redis.call('HSET', pool, 'head', append(journal, '1', '', fields))
  return {'created'}
end

if staged ~= '' and redis.call('HGET', pool, 'staged') ~= staged then return {'stale'} end
local same = true
for i = 1, #names do
  if current[i] ~= wanted[i] then same = false end
end
if same and public == (shown or '1') then
  if staged ~= '' then redis.call('HDEL', pool, 'staged') end
  return {'unchanged'}
end
local link = redis.call('HGET', pool, 'state') or 'running'
if not same and staged == '' and link == 'running' then return {'running'} end

local cap = tonumber(ARGV[5])
local value = tonumber(redis.call('HGET', pool, 'value'))
if cap >= 0 and cap * UNIT < value then
  return {'cap_below_value', string.format('%d', math.floor(value / UNIT))}
end
redis.call('HSET', KEYS[4], 'clock', now)
local seq = redis.call('HINCRBY', pool, 'seq', 1)
redis.call('HSET', pool, 'reset', ARGV[2], 'rate_bp', ARGV[3], 'reserve_rate_bp', ARGV[4],
  'cap', ARGV[5], 'policy', ARGV[6], 'public', public)
redis.call('HINCRBY', pool, 'version', 1)
if staged ~= '' then redis.call('HDEL', pool, 'staged') end
local prev = redis.call('HGET', pool, 'head') or ''
redis.call('HSET', pool, 'head', append(journal, string.format('%d', seq), prev, entry('config')))
return {'updated'}
