-- put_sign: create, change or delete a sign's definition, journaled in the house journal.
--
-- KEYS[1] {ns}/signs  hash: sign id -> definition JSON   KEYS[2] {ns}/counters  hash
-- KEYS[3] {ns}/journal  stream: the house journal   KEYS[#KEYS] {ns}/activity  stream
-- ARGV[1] sign id  ARGV[2] the definition JSON (canonical), '' to delete  ARGV[3] who
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created"} | {"updated"} | {"unchanged"} | {"deleted"} | {"missing"}
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local current = redis.call('HGET', KEYS[1], ARGV[1])
local kind, answer
if ARGV[2] == '' then
  if not current then return {'missing'} end
  redis.call('HDEL', KEYS[1], ARGV[1])
  kind, answer = 'sign_deleted', 'deleted'
else
  if current == ARGV[2] then return {'unchanged'} end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  kind, answer = 'sign_changed', current and 'updated' or 'created'
end
local now = string.format('%d', clock(KEYS[2]))
redis.call('HSET', KEYS[2], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[2], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], seq, prev,
  {'type', kind, 'ts', now, 'who', ARGV[3], 'sign', ARGV[1], 'definition', ARGV[2]}))
return {answer}
