-- retire_pool: retire a pool and move its whole balance, meter and reserve, to another pool
-- in one step (docs/DECISIONS.md D31-D35), applied once per transfer id.
--
-- KEYS[1] {ns}/pool/<from>  hash   KEYS[2] {ns}/pool/<from>/journal  stream
-- KEYS[3] {ns}/pool/<to>    hash   KEYS[4] {ns}/pool/<to>/journal    stream
-- KEYS[5] {ns}/counters  hash (clock, config_version)
-- KEYS[6] {ns}/adjustments  hash: transfer and adjustment ids -> digest of the request
-- KEYS[7] {ns}/journal  stream: the house journal, which binds the step (D271); KEYS[5]
--   holds its house_seq and house_head
-- ARGV[1] transfer id  ARGV[2] digest of the request  ARGV[3] the config version the caller
-- found no table feeding the pool under  ARGV[4] reason  ARGV[5] who
-- ARGV[6] from pool id  ARGV[7] to pool id
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"applied", moved_value_units, moved_reserve_units, to_value_units, to_reserve_units}
--        | {"replay"} | {"conflict"} | {"missing", id} | {"retired", id} | {"stale"}
--        | {"over_limit"}
-- Both pools keep SPEC §4's invariant: the moved total is an audited adjustment of each
-- (out of one, into the other), counted in adjust_units and journaled in both journals.
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local UNIT = 10000
local seen = redis.call('HGET', KEYS[6], ARGV[1])
if seen then
  if seen == ARGV[2] then return {'replay'} end
  return {'conflict'}
end
local a = redis.call('HMGET', KEYS[1], 'value', 'reserve', 'state', 'seq', 'head', 'trigger',
  'trigger_salt', 'commitment', 'draw', 'level')
if not a[1] then return {'missing', ARGV[6]} end
local b = redis.call('HMGET', KEYS[3], 'value', 'reserve', 'state', 'seq', 'head', 'cap',
  'trigger')
if not b[1] then return {'missing', ARGV[7]} end
if a[3] == 'retired' then return {'retired', ARGV[6]} end
if b[3] == 'retired' then return {'retired', ARGV[7]} end
if (redis.call('HGET', KEYS[5], 'config_version') or '0') ~= ARGV[3] then return {'stale'} end

local mv, mr = tonumber(a[1]), tonumber(a[2])
local v, r, cap = tonumber(b[1]) + mv, tonumber(b[2]) + mr, tonumber(b[6])
-- the receiving meter stays under its cap: what would pass it goes to its reserve, as a
-- contribution's overflow does
local to_visible, to_reserve = mv, mr
if cap >= 0 and v > cap * UNIT then
  local over = v - cap * UNIT
  v, r, to_visible, to_reserve = cap * UNIT, r + over, mv - over, mr + over
end
-- a must-hit-by or mystery level's meter moves toward its hidden trigger by wagers alone:
-- the whole balance goes to its reserve
if b[7] and to_visible > 0 then
  v, r, to_visible, to_reserve = v - to_visible, r + to_visible, 0, to_reserve + to_visible
end
if v > 1e15 or r > 1e15 then return {'over_limit'} end

local fmt = function(n) return string.format('%d', n) end
local total = mv + mr
local now = fmt(clock(KEYS[5]))
redis.call('HSET', KEYS[5], 'clock', now)
-- tables are checked against the config version: a table put meanwhile is checked again
redis.call('HINCRBY', KEYS[5], 'config_version', 1)

local seq_a = fmt(tonumber(a[4]) + 1)
local retiring = {'type', 'transfer', 'ts', now,
  'who', ARGV[5], 'transfer', ARGV[1], 'to', ARGV[7], 'amount_units', fmt(-total),
  'reason', ARGV[4], 'value_units', '0', 'reserve_units', '0'}
if a[6] then  -- a must-hit-by or mystery level retires its trigger: revealed, never won
  for _, f in ipairs({'level', a[10], 'draw', a[9] or '0', 'commitment', a[8],
      'trigger_cents', a[6], 'salt', a[7]}) do
    table.insert(retiring, f)
  end
  redis.call('HDEL', KEYS[1], 'trigger', 'trigger_salt', 'commitment', 'trigger_span',
    'armed_at', 'armed_seq', 'armed_high')
end
local head_a = append(KEYS[2], seq_a, a[5] or '', retiring)
-- retired_to: where its money went, for a void of a round it was fed by (void_round.lua)
redis.call('HSET', KEYS[1], 'value', '0', 'reserve', '0', 'state', 'retired', 'seq', seq_a,
  'head', head_a, 'retired', now, 'retired_to', ARGV[7])
redis.call('HINCRBY', KEYS[1], 'adjust_units', fmt(-total))

local seq_b = fmt(tonumber(b[4]) + 1)
local head_b = append(KEYS[4], seq_b, b[5] or '', {'type', 'transfer', 'ts', now,
  'who', ARGV[5], 'transfer', ARGV[1], 'from', ARGV[6], 'amount_units', fmt(total),
  'to_visible_units', fmt(to_visible), 'to_reserve_units', fmt(to_reserve),
  'reason', ARGV[4], 'value_units', fmt(v), 'reserve_units', fmt(r)})
redis.call('HSET', KEYS[3], 'value', fmt(v), 'reserve', fmt(r), 'seq', seq_b, 'head', head_b)
redis.call('HINCRBY', KEYS[3], 'adjust_units', fmt(total))
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
-- the house journal binds both pools' entries, seqs and hashes, in the same step (D271)
activity = nil  -- the console's activity shows the step by the pools' entries
local house_seq = fmt(redis.call('HINCRBY', KEYS[5], 'house_seq', 1))
redis.call('HSET', KEYS[5], 'house_head', append(KEYS[7], house_seq,
  redis.call('HGET', KEYS[5], 'house_head') or '',
  {'type', 'pool_transfer', 'ts', now, 'who', ARGV[5], 'transfer', ARGV[1],
   'from', ARGV[6], 'to', ARGV[7], 'amount_units', fmt(total),
   'from_seq', seq_a, 'from_entry', head_a, 'to_seq', seq_b, 'to_entry', head_b}))
return {'applied', fmt(mv), fmt(mr), fmt(v), fmt(r)}
