-- key_event: create, assign or revoke an API key, journaled in the house journal in the same
-- step. The entry names the person a key is issued to as `issued_to`.
--
-- KEYS[1] {ns}/key/<sha256>  hash   KEYS[2] {ns}/keys  hash: key id -> sha256
-- KEYS[3] {ns}/counters  hash (house_seq, house_head, clock)   KEYS[4] {ns}/journal  stream
-- KEYS[5] {ns}/people  hash: person id -> JSON (the register: store/people.py)
-- ARGV[1] 'create' | 'assign' | 'revoke'  ARGV[2] key id  ARGV[3] who
-- create: ARGV[4] role  ARGV[5] tables JSON  ARGV[6] label  ARGV[7] the person it is issued to
--   ('' for a device's key: a table's or a sign's)
-- assign: ARGV[4] the person an existing operator's or auditor's key, issued to nobody before
--   the register, now belongs to (jackpot people migrate)
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created", created_ms} | {"assigned"} | {"revoked"} | {"unchanged"} | {"missing"}
--   | {"no_person"} | {"inactive"} (the person is not in the register, or not active: nothing
--   is written) | {"assigned_already", person}
-- A key is issued only to an active person, checked here where it is made. The key's secret
-- and its digest never enter the journal: only its id, role, tables and person.
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local now = string.format('%d', clock(KEYS[3]))
local fields

-- the person a key is issued to, with the key added to theirs; nil and the refusal if none
local function issue_to(id, key_id)
  local raw = redis.call('HGET', KEYS[5], id)
  if not raw then return nil, {'no_person'} end
  local person = cjson.decode(raw)
  if not person.active then return nil, {'inactive'} end
  local held = person.keys
  if type(held) ~= 'table' or next(held) == nil then held = {} end
  table.insert(held, key_id)
  person.keys = held
  return person, nil
end

if ARGV[1] == 'create' then
  local person_id = ARGV[7] or ''
  if person_id ~= '' then
    local person, refused = issue_to(person_id, ARGV[2])
    if refused then return refused end
    redis.call('HSET', KEYS[5], person_id, cjson.encode(person))
  end
  redis.call('HSET', KEYS[1], 'id', ARGV[2], 'role', ARGV[4], 'tables', ARGV[5],
    'created', now, 'label', ARGV[6], 'person', person_id)
  redis.call('HSET', KEYS[2], ARGV[2], string.match(KEYS[1], '/key/(.*)$'))
  fields = {'type', 'key_created', 'ts', now, 'who', ARGV[3], 'key', ARGV[2],
    'role', ARGV[4], 'tables', ARGV[5], 'label', ARGV[6], 'issued_to', person_id}
elseif ARGV[1] == 'assign' then
  local state = redis.call('HMGET', KEYS[1], 'id', 'revoked', 'person')
  if not state[1] then return {'missing'} end
  if state[3] and state[3] ~= '' then
    if state[3] == ARGV[4] then return {'unchanged'} end
    return {'assigned_already', state[3]}
  end
  if state[2] then return {'missing'} end  -- a revoked key is given to nobody
  local person, refused = issue_to(ARGV[4], ARGV[2])
  if refused then return refused end
  redis.call('HSET', KEYS[5], ARGV[4], cjson.encode(person))
  redis.call('HSET', KEYS[1], 'person', ARGV[4])
  fields = {'type', 'key_assigned', 'ts', now, 'who', ARGV[3], 'key', ARGV[2],
    'issued_to', ARGV[4]}
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
if ARGV[1] == 'assign' then return {'assigned'} end
return {'revoked'}
