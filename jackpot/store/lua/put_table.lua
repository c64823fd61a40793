-- put_table: create or change a table's configuration under the global config version.
--
-- KEYS[1] {ns}/table/<id>  hash   KEYS[2] {ns}/counters  hash (config_version, house_seq, clock)
-- KEYS[3] {ns}/journal     stream: the house journal   KEYS[4] {ns}/tables  set of table ids
-- ARGV[1] table id  ARGV[2] the config version the caller checked linked tables against
-- ARGV[3] config JSON (canonical)  ARGV[4] who  ARGV[5] the entry's type for a change
-- (`table_updated`, or `table_disabled` / `table_enabled` when play is switched)
-- ARGV[6] the reason ('' for none)
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"created", version} | {"updated", version} | {"unchanged", version} | {"stale"}
--        | {"moving", move} (the table is moving to another link group: move_table.lua)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local seen = redis.call('HGET', KEYS[2], 'config_version') or '0'
if seen ~= ARGV[2] then return {'stale'} end
local current = redis.call('HMGET', KEYS[1], 'config', 'version', 'moving')
if current[3] then return {'moving', current[3]} end
if current[1] == ARGV[3] then return {'unchanged', current[2]} end

local now = string.format('%d', clock(KEYS[2]))
redis.call('HSET', KEYS[2], 'clock', now)
local version = redis.call('HINCRBY', KEYS[2], 'config_version', 1)
redis.call('HSET', KEYS[1], 'config', ARGV[3], 'version', version)
redis.call('SADD', KEYS[4], ARGV[1])
local seq = redis.call('HINCRBY', KEYS[2], 'house_seq', 1)
local kind = current[1] and ARGV[5] or 'table_created'
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
local fields = {'type', kind, 'ts', now, 'who', ARGV[4], 'table', ARGV[1], 'config', ARGV[3]}
if ARGV[6] ~= '' then
  table.insert(fields, 'reason')
  table.insert(fields, ARGV[6])
end
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], string.format('%d', seq), prev, fields))
return {current[1] and 'updated' or 'created', version}
