-- person_event: one change to the register of people, journaled in the house journal in the
-- same step (docs/RULES.md §5, D232). The register holds each person who may act on money under
-- the id the casino uses (employee or badge number); every control compares these ids.
--
-- KEYS[1] {ns}/people  hash: person id -> JSON   KEYS[2] {ns}/counters  hash (house_seq,
-- house_head, clock)   KEYS[3] {ns}/journal  stream   KEYS[4..#KEYS-1] (deactivate) the hashes
-- of the person's keys, {ns}/key/<sha256>, in the order of ARGV[5]
-- ARGV[1] 'register' | 'change' | 'deactivate' | 'reactivate'  ARGV[2] person id  ARGV[3] who
-- ARGV[4] reason (may be empty, except for a name confusable with another's)
-- register, change, reactivate: ARGV[5] name  ARGV[6] JSON: its TR39 skeletons
--   (jackpot.domain.names.skeletons: two names sharing one are confusable)
--   ARGV[7] position  ARGV[8] '1': the request says this is a different person than any whose
--   name it is confusable with (the reason says why)
-- deactivate: ARGV[5] JSON: the ids of the person's keys as the caller read them
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"done", json} | {"unchanged", json} | {"exists", json} | {"missing"}
--   | {"confusable", id, name} | {"stale"} (deactivate: the person's keys changed meanwhile)
-- Each entry names the person by `staff_id` (its `who` is the one who made the change).
-- A name confusable with an active person's (a skeleton in common) is refused unless the request
-- says this is a different person, with a reason: checked here, where the register changes.
-- Deactivating a person revokes every key issued to them in the same step.
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]
local op, id, who, reason = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local raw = redis.call('HGET', KEYS[1], id)
local person = raw and cjson.decode(raw)
local now = clock(KEYS[2])
local ts = string.format('%d', now)

local function entry(fields)
  redis.call('HSET', KEYS[2], 'clock', ts)
  local seq = string.format('%d', redis.call('HINCRBY', KEYS[2], 'house_seq', 1))
  local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
  redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], seq, prev, fields))
end

-- the active people, other than this one, whose names share a skeleton of `skeletons`
local function confusable_with(skeletons)
  local mine = {}
  for _, s in ipairs(skeletons) do mine[s] = true end
  local found = {}
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if all[i] ~= id then
      local other = cjson.decode(all[i + 1])
      local alike = false
      for _, s in ipairs(other.active and other.skeletons or {}) do
        if mine[s] then alike = true end
      end
      if alike then table.insert(found, {other.id, other.name}) end
    end
  end
  table.sort(found, function(a, b) return a[1] < b[1] end)
  return found
end

local function names_ok(skeletons)  -- nil, or the refusal
  local others = confusable_with(skeletons)
  if #others == 0 then return nil, '' end
  if ARGV[8] ~= '1' or reason == '' then return {'confusable', others[1][1], others[1][2]} end
  local ids = {}
  for _, o in ipairs(others) do table.insert(ids, o[1]) end
  return nil, table.concat(ids, ',')
end

if op == 'register' then
  if person then return {'exists', raw} end
  local skeletons = cjson.decode(ARGV[6])
  local refused, similar = names_ok(skeletons)
  if refused then return refused end
  person = {id = id, name = ARGV[5], skeletons = skeletons, position = ARGV[7], active = true,
    created = now, changed = now}
  entry({'type', 'person_registered', 'ts', ts, 'who', who, 'staff_id', id, 'name', ARGV[5],
    'position', ARGV[7], 'reason', reason, 'confusable_with', similar})
elseif not person then
  return {'missing'}
elseif op == 'change' then
  if person.name == ARGV[5] and (person.position or '') == ARGV[7] then
    return {'unchanged', raw}
  end
  local similar = ''
  local skeletons = cjson.decode(ARGV[6])
  if person.active and person.name ~= ARGV[5] then
    local refused
    refused, similar = names_ok(skeletons)
    if refused then return refused end
  end
  entry({'type', 'person_changed', 'ts', ts, 'who', who, 'staff_id', id, 'name', ARGV[5],
    'was', person.name, 'position', ARGV[7], 'reason', reason, 'confusable_with', similar})
  person.name, person.skeletons, person.position, person.changed = ARGV[5], skeletons, ARGV[7],
    now
elseif op == 'reactivate' then
  if person.active then return {'unchanged', raw} end
  local refused, similar = names_ok(person.skeletons or {})
  if refused then return refused end
  person.active, person.changed = true, now
  entry({'type', 'person_reactivated', 'ts', ts, 'who', who, 'staff_id', id, 'reason', reason,
    'confusable_with', similar})
elseif op == 'deactivate' then
  local told = cjson.decode(ARGV[5])
  local held = person.keys or {}
  if #told ~= #held then return {'stale'} end
  for i, key_id in ipairs(held) do
    if told[i] ~= key_id then return {'stale'} end
  end
  if not person.active then return {'unchanged', raw} end
  local states = {}
  for i, key_id in ipairs(held) do
    local state = redis.call('HMGET', KEYS[3 + i], 'id', 'revoked', 'person')
    if state[1] ~= key_id or state[3] ~= id then
      return redis.error_reply('person_event: key ' .. key_id .. ' is not ' .. id .. "'s")
    end
    states[i] = state
  end
  person.active, person.changed = false, now
  entry({'type', 'person_deactivated', 'ts', ts, 'who', who, 'staff_id', id, 'reason', reason})
  -- every key issued to them, revoked in this same step: no worker answers one again
  for i, key_id in ipairs(held) do
    if not states[i][2] then
      redis.call('HSET', KEYS[3 + i], 'revoked', ts)
      entry({'type', 'key_revoked', 'ts', ts, 'who', who, 'key', key_id,
        'reason', 'person ' .. id .. ' deactivated'})
    end
  end
else
  return redis.error_reply('person_event: unknown step ' .. op)
end
if next(person.keys or {}) == nil then person.keys = nil end  -- cjson: {} would be an object
local json = cjson.encode(person)
redis.call('HSET', KEYS[1], id, json)
return {'done', json}
