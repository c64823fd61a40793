-- day_closed: journal a closed gaming day's digest in the house journal, once: the closed
-- days' records are bound to the hash chain (each names the digest of the day before it).
--
-- KEYS[1] {ns}/closed_days  hash: day -> digest   KEYS[2] {ns}/counters  hash
-- KEYS[3] {ns}/journal  stream: the house journal   KEYS[#KEYS] {ns}/activity  stream
-- ARGV[1] day (YYYY-MM-DD)  ARGV[2] its record's digest  ARGV[3] the previous closed day's
-- digest ('' for the first)  ARGV[4] who
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"journaled", digest} | {"recorded", digest} (journaled before: that one)
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then return {'recorded', found} end
local now = string.format('%d', clock(KEYS[2]))
redis.call('HSET', KEYS[2], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[2], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], seq, prev, {'type', 'day_closed',
  'ts', now, 'who', ARGV[4], 'day', ARGV[1], 'digest', ARGV[2], 'prev_day', ARGV[3]}))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {'journaled', ARGV[2]}
