-- forget_rounds: round ids into their tables' filters of forgotten rounds (forgotten.lua,
-- put before this script), and with 'trim' their records out of Redis, atomically: a report
-- finds either the record or the id in the filter, never neither (docs/DECISIONS.md D225).
--
-- KEYS[3i-2] {ns}/round/<table>/<round>   KEYS[3i-1] {ns}/table/<table>
-- KEYS[3i]   {ns}/forgotten/<table>
-- ARGV[1] 'trim' (the archiver: the records are archived and past the window) or 'remember'
--         (a table's move: copies of records that will expire in the new group)
-- ARGV[i + 1] round i's probes, as JSON
-- returns how many records were deleted
local gone = 0
for i = 1, #ARGV - 1 do
  local record, table_key, filter = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local n = tonumber(redis.call('HGET', table_key, 'forgotten') or '0')
  local full = forget(filter, n, cjson.decode(ARGV[i + 1]))
  if full then return full end  -- nothing of this round written: its record stays
  redis.call('HSET', table_key, 'forgotten', string.format('%d', n + 1))
  if ARGV[1] == 'trim' then gone = gone + redis.call('DEL', record) end
end
return gone
