-- key_event: create or revoke an API key, journaled in the house journal in the same step.
--
-- KEYS[1] {ns}/key/<sha256>  hash   KEYS[2] {ns}/keys  hash: key id -> sha256
-- KEYS[3] {ns}/counters  hash (house_seq, house_head, clock)   KEYS[4] {ns}/journal  stream
-- ARGV[1] 'create' | 'revoke'  ARGV[2] key id  ARGV[3] who
-- create: ARGV[4] role  ARGV[5] tables JSON  ARGV[6] label
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created", created_ms} | {"revoked"} | {"unchanged"} | {"missing"}
-- The key's secret and its digest never enter the journal: only its id, role and tables.
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local now = string.format('%d', clock(KEYS[3]))
local fields
if ARGV[1] == 'create' then
  redis.call('HSET', KEYS[1], 'id', ARGV[2], 'role', ARGV[4], 'tables', ARGV[5],
    'created', now, 'label', ARGV[6])
  redis.call('HSET', KEYS[2], ARGV[2], string.match(KEYS[1], '/key/(.*)$'))
  fields = {'type', 'key_created', 'ts', now, 'who', ARGV[3], 'key', ARGV[2],
    'role', ARGV[4], 'tables', ARGV[5], 'label', ARGV[6]}
else
  local state = redis.call('HMGET', KEYS[1], 'id', 'revoked')
  if not state[1] then return {'missing'} end
  if state[2] then return {'unchanged'} end
  redis.call('HSET', KEYS[1], 'revoked', now)
  fields = {'type', 'key_revoked', 'ts', now, 'who', ARGV[3], 'key', ARGV[2]}
end
redis.call('HSET', KEYS[3], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[3], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[3], 'house_head') or ''
redis.call('HSET', KEYS[3], 'house_head', append(KEYS[4], seq, prev, fields))
if ARGV[1] == 'create' then return {'created', now} end
return {'revoked'}
