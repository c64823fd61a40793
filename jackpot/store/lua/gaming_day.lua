-- gaming_day: record the controller's gaming day (its first process), or change it;
-- journaled in the house journal either way.
--
-- KEYS[1] {ns}/gaming_day  string: JSON {"start": "HH:MM", "zone": "<IANA zone>"}
-- KEYS[2] {ns}/counters  hash   KEYS[3] {ns}/journal  stream: the house journal
-- KEYS[#KEYS] {ns}/activity  stream
-- ARGV[1] the definition JSON (canonical)  ARGV[2] who  ARGV[3] 'first' | 'change'
-- ARGV[4] why (a change's reason; '' for the first)
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"recorded", definition} (the first, or one already there) | {"changed", from}
--          | {"unchanged", definition}
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local current = redis.call('GET', KEYS[1])
if ARGV[3] == 'first' and current then return {'recorded', current} end
if current == ARGV[1] then return {'unchanged', current} end
redis.call('SET', KEYS[1], ARGV[1])
local now = string.format('%d', clock(KEYS[2]))
redis.call('HSET', KEYS[2], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[2], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
local entry = {'type', current and 'gaming_day_changed' or 'gaming_day_set', 'ts', now,
  'who', ARGV[2], 'definition', ARGV[1]}
if current then
  table.insert(entry, 'from')
  table.insert(entry, current)
  table.insert(entry, 'reason')
  table.insert(entry, ARGV[4])
end
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], seq, prev, entry))
if current then return {'changed', current} end
return {'recorded', ARGV[1]}
