-- stage_pool: stage a change of a pool's parameters, or cancel the one waiting; journaled.
--
-- A staged change waits in the pool's hash (`staged`, JSON) until the pool is suspended or
-- its `effective_at` has come; put_pool.lua applies it then. A new one replaces the one
-- waiting. Money never moves. 'refuse' records that the change waiting (ARGV[2], as stored)
-- was refused when it was to take effect (the return check, docs/DECISIONS.md D229): it stays
-- staged, the pool's hash names the refusal (`refused`: the change, `refused_reason`) and the
-- journal gets one `change_refused` entry per change (a change refused again is not
-- journaled again).
--
-- KEYS[1] {ns}/pool/<id>  hash   KEYS[2] {ns}/pool/<id>/journal  stream
-- KEYS[3] {ns}/counters  hash (clock)   KEYS[#KEYS] {ns}/activity  stream
-- ARGV[1] 'stage' | 'cancel' | 'refuse'  ARGV[2] the change's JSON (stage, refuse)
-- ARGV[3] who  ARGV[4] reason
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"staged"} | {"cancelled"} | {"none"} (nothing to cancel) | {"missing"}
--   | {"retired"} | {"refused"} | {"noted"} (refused before) | {"stale"} (another waits)
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local pool = KEYS[1]
local current = redis.call('HMGET', pool, 'reset', 'state', 'seq', 'head', 'staged')
if not current[1] then return {'missing'} end
if current[2] == 'retired' then return {'retired'} end
local now = string.format('%d', clock(KEYS[3]))
local fields
if ARGV[1] == 'refuse' then
  if current[5] ~= ARGV[2] then return {'stale'} end
  if redis.call('HGET', pool, 'refused') == ARGV[2] then return {'noted'} end
  redis.call('HSET', pool, 'refused', ARGV[2], 'refused_reason', ARGV[4])
  local change = cjson.decode(ARGV[2])
  fields = {'type', 'change_refused', 'ts', now, 'who', ARGV[3], 'staged_by', change.who,
    'rate_bp', string.format('%d', change.rate_bp), 'reset', string.format('%d', change.reset),
    'reason', ARGV[4]}
elseif ARGV[1] == 'stage' then
  local change = cjson.decode(ARGV[2])
  redis.call('HSET', pool, 'staged', ARGV[2])
  redis.call('HDEL', pool, 'refused', 'refused_reason')
  local cap = change.cap == cjson.null and '-1' or string.format('%d', change.cap)
  local at = change.effective_at == cjson.null and '' or string.format('%d', change.effective_at)
  fields = {'type', 'change_staged', 'ts', now, 'who', ARGV[3],
    'reset', string.format('%d', change.reset), 'rate_bp', string.format('%d', change.rate_bp),
    'reserve_rate_bp', string.format('%d', change.reserve_rate_bp), 'cap', cap,
    'policy', change.policy, 'effective_at', at, 'reason', ARGV[4]}
  if change.level then  -- a must-hit-by or mystery level's own fields (a hand level has none)
    local function text(n) return n == cjson.null and '' or string.format('%d', n) end
    for _, f in ipairs({'level', change.level, 'trigger_low', text(change.trigger_low or cjson.null),
        'trigger_high', text(change.trigger_high or cjson.null),
        'qualifying_wager', text(change.qualifying_wager)}) do
      table.insert(fields, f)
    end
  end
else
  if not current[5] then return {'none'} end
  redis.call('HDEL', pool, 'staged', 'refused', 'refused_reason')
  fields = {'type', 'change_cancelled', 'ts', now, 'who', ARGV[3], 'reason', ARGV[4]}
end
redis.call('HSET', KEYS[3], 'clock', now)
local seq = redis.call('HINCRBY', pool, 'seq', 1)
redis.call('HSET', pool, 'head', append(KEYS[2], string.format('%d', seq), current[4] or '',
  fields))
return {({stage = 'staged', cancel = 'cancelled', refuse = 'refused'})[ARGV[1]]}
