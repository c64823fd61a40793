-- move_table: one step of a table's move between link groups, journaled in the house journal
-- of the group it is taken in (jackpot/services/moves.py runs the whole move).
--
-- KEYS[1] {g}/table/<id>  hash   KEYS[2] {g}/counters  hash (config_version, house_seq, clock)
-- KEYS[3] {g}/journal     stream: the house journal   KEYS[4] {g}/tables  set of table ids
-- KEYS[#KEYS] {g}/activity  stream: a capped copy of the entries, for the console
-- ARGV[1] 'seal' | 'unseal' | 'arrive' | 'leave'   ARGV[2] table id   ARGV[3] move id
-- ARGV[4] from group   ARGV[5] to group   ARGV[6] who   ARGV[7] reason
-- ARGV[8] round records copied ('' before the copy)
-- ARGV[9] the table's config in its new group (canonical JSON, disabled)
-- seal:   ARGV[10] the table's version the move was planned on (another: 'stale')
-- arrive: ARGV[10] the config version the caller checked the group's linked tables against
--         ARGV[11] the table's rounds so far   ARGV[12] when it was last heard from ('' never)
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
--
-- seal (old group): a disabled table is marked moving and its version changes: no plan made
--   before settles, and put_table/change_game refuse it from now on
--   -> {'sealed'} | {'done'} | {'missing'} | {'enabled'} | {'stale'} | {'moving', other}
-- unseal (old group): a move refused before the table arrived anywhere is called off: the
--   table may change again -> {'unsealed'} | {'done'}
-- arrive (new group): the table is written, disabled, with its new pools
--   -> {'arrived'} | {'done'} | {'stale'} | {'exists'} (another table by that id is there)
-- leave (old group): the sealed table is deleted -> {'left'} | {'done'} | {'moving', other}
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local mode, table_id, move = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HMGET', KEYS[1], 'config', 'moving', 'moved_in', 'version')

if mode == 'seal' then
  if not current[1] then return {'missing'} end
  if current[2] == move then return {'done'} end
  if current[2] then return {'moving', current[2]} end
  if cjson.decode(current[1]).enabled ~= false then return {'enabled'} end
  if current[4] ~= ARGV[10] then return {'stale'} end
elseif mode == 'unseal' then
  if current[2] ~= move then return {'done'} end
elseif mode == 'arrive' then
  if current[3] == move then return {'done'} end
  if current[1] then return {'exists'} end
  if (redis.call('HGET', KEYS[2], 'config_version') or '0') ~= ARGV[10] then return {'stale'} end
else
  if not current[1] then return {'done'} end  -- it left already
  if current[2] ~= move then return {'moving', current[2] or ''} end
end

local now = string.format('%d', clock(KEYS[2]))
redis.call('HSET', KEYS[2], 'clock', now)
local version = redis.call('HINCRBY', KEYS[2], 'config_version', 1)
local kind
if mode == 'seal' then
  kind = 'table_move_started'
  redis.call('HSET', KEYS[1], 'moving', move, 'version', version)
elseif mode == 'unseal' then
  kind = 'table_move_called_off'
  redis.call('HDEL', KEYS[1], 'moving')
  redis.call('HSET', KEYS[1], 'version', version)
elseif mode == 'arrive' then
  kind = 'table_arrived'
  redis.call('HSET', KEYS[1], 'config', ARGV[9], 'version', version, 'rounds', ARGV[11],
    'moved_in', move)
  if ARGV[12] ~= '' then redis.call('HSET', KEYS[1], 'last_seen', ARGV[12]) end
  redis.call('SADD', KEYS[4], table_id)
else
  kind = 'table_left'
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[4], table_id)
end
local seq = redis.call('HINCRBY', KEYS[2], 'house_seq', 1)
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], string.format('%d', seq), prev,
  {'type', kind, 'ts', now, 'who', ARGV[6], 'table', table_id, 'move', move,
   'from', ARGV[4], 'to', ARGV[5], 'reason', ARGV[7], 'rounds_copied', ARGV[8],
   'config', ARGV[9]}))
local done = {seal = 'sealed', unseal = 'unsealed', arrive = 'arrived', leave = 'left'}
return {done[mode]}
