-- adjust_pool: an audited manual movement of a pool's money, applied once per adjustment id.
--
-- KEYS[1] {ns}/pool/<id>  hash   KEYS[2] {ns}/pool/<id>/journal  stream
-- KEYS[3] {ns}/adjustments  hash: adjustment id -> digest (the pool is part of it)
-- KEYS[4] {ns}/counters  hash (clock, house_seq, house_head)
-- KEYS[5] {ns}/journal  stream: the house journal, which binds the step (D271)
-- ARGV[1] adjustment id  ARGV[2] digest of the request  ARGV[3] target ("visible" | "reserve")
-- ARGV[4] amount in units (signed)  ARGV[5] reason  ARGV[6] who  ARGV[7] the pool's id
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"applied", value_units, reserve_units} | {"replay"} | {"conflict"} | {"missing"}
--        | {"negative"} | {"over_cap"} | {"retired"} (a retired pool holds no money: its balance
--          went to another pool, and money put in it would be stranded)
--        | {"hidden_trigger"} (a raise of a must-hit-by or mystery level's meter: only wagers
--          move it toward its trigger, and a raise refused at the trigger would give it away)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local UNIT = 10000
local seen = redis.call('HGET', KEYS[3], ARGV[1])
if seen then
  if seen == ARGV[2] then return {'replay'} end
  return {'conflict'}
end
local h = redis.call('HMGET', KEYS[1], 'value', 'reserve', 'cap', 'trigger', 'state')
if not h[1] then return {'missing'} end
if h[5] == 'retired' then return {'retired'} end
local v, r, cap, amount = tonumber(h[1]), tonumber(h[2]), tonumber(h[3]), tonumber(ARGV[4])
if h[4] and ARGV[3] == 'visible' and amount > 0 then return {'hidden_trigger'} end
if ARGV[3] == 'visible' then v = v + amount else r = r + amount end
if v < 0 or r < 0 then return {'negative'} end
if cap >= 0 and v > cap * UNIT then return {'over_cap'} end
if v > 1e15 or r > 1e15 then return {'over_cap'} end

local vs, rs = string.format('%d', v), string.format('%d', r)
local now = string.format('%d', clock(KEYS[4]))
redis.call('HSET', KEYS[4], 'clock', now)
redis.call('HSET', KEYS[1], 'value', vs, 'reserve', rs)
redis.call('HINCRBY', KEYS[1], 'adjust_units', ARGV[4])
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local prev = redis.call('HGET', KEYS[1], 'head') or ''
local head = append(KEYS[2], string.format('%d', seq), prev,
  {'type', 'adjustment', 'ts', now, 'who', ARGV[6], 'adjustment', ARGV[1], 'target', ARGV[3],
   'amount_units', ARGV[4], 'reason', ARGV[5], 'value_units', vs, 'reserve_units', rs})
redis.call('HSET', KEYS[1], 'head', head)
-- the house journal binds the pool's entry, seq and hash, in the same step (D271): verify
-- holds every pool adjustment to it, as a round's entries to the house's `round`
-- (the console's activity shows the step once: the pool's entry)
activity = nil
local house_seq = string.format('%d', redis.call('HINCRBY', KEYS[4], 'house_seq', 1))
redis.call('HSET', KEYS[4], 'house_head', append(KEYS[5], house_seq,
  redis.call('HGET', KEYS[4], 'house_head') or '',
  {'type', 'pool_adjustment', 'ts', now, 'who', ARGV[6], 'pool', ARGV[7],
   'adjustment', ARGV[1], 'target', ARGV[3], 'amount_units', ARGV[4],
   'pool_seq', string.format('%d', seq), 'pool_entry', head}))
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return {'applied', vs, rs}
