-- change_game: a linked group's new game, written to every table of the group at once.
--
-- KEYS[1] {ns}/counters  hash (config_version, house_seq, clock)
-- KEYS[2] {ns}/journal   stream: the house journal
-- KEYS[3..#KEYS-1] {ns}/table/<id>  hash, one per table of the group, in the order of ARGV[7..]
-- ARGV[1] the config version the caller checked the group against  ARGV[2] who
-- ARGV[3] reason  ARGV[4] pool the change was made through  ARGV[5] the game JSON
-- ARGV[6] the group's table ids as a JSON list  ARGV[7..] each table's new config JSON
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", version} | {"unchanged", version} | {"stale"} | {"missing", table}
--        | {"moving", table} (a table of the group is moving to another link group)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local seen = redis.call('HGET', KEYS[1], 'config_version') or '0'
if seen ~= ARGV[1] then return {'stale'} end
local changed = false
for i = 3, #KEYS - 1 do
  local current, moving = unpack(redis.call('HMGET', KEYS[i], 'config', 'moving'))
  if not current then return {'missing', cjson.decode(ARGV[6])[i - 2]} end
  if moving then return {'moving', cjson.decode(ARGV[6])[i - 2]} end
  if current ~= ARGV[i + 4] then changed = true end
end
if not changed then return {'unchanged', seen} end

local now = string.format('%d', clock(KEYS[1]))
redis.call('HSET', KEYS[1], 'clock', now)
local version = redis.call('HINCRBY', KEYS[1], 'config_version', 1)
for i = 3, #KEYS - 1 do
  redis.call('HSET', KEYS[i], 'config', ARGV[i + 4], 'version', version)
end
local seq = redis.call('HINCRBY', KEYS[1], 'house_seq', 1)
local prev = redis.call('HGET', KEYS[1], 'house_head') or ''
redis.call('HSET', KEYS[1], 'house_head', append(KEYS[2], string.format('%d', seq), prev,
  {'type', 'game_changed', 'ts', now, 'who', ARGV[2], 'reason', ARGV[3], 'pool', ARGV[4],
   'tables', ARGV[6], 'config', ARGV[5]}))
return {'changed', version}
