-- table_counts_acknowledged: a person acknowledges the difference between a table's own
-- counts of a gaming day and the controller's, as the latest comparison shows it; journaled
-- in the house journal (table_counts_acknowledged), once per difference (docs/DECISIONS.md
-- D227). The comparison is read here, where the acknowledgement is recorded: one the worker
-- made since the person read it is not acknowledged unseen.
--
-- KEYS[1] {ns}/table_checks  hash: table/day -> the latest comparison (JSON)
-- KEYS[2] {ns}/table_acks  hash: table/day -> the acknowledgement in force (JSON)
-- KEYS[3] {ns}/counters  hash   KEYS[4] {ns}/journal  stream: the house journal
-- KEYS[#KEYS] {ns}/activity  stream
-- ARGV[1] table  ARGV[2] day (YYYY-MM-DD)  ARGV[3] the comparison's checked_at the person saw
-- ARGV[4] who (role:key id)  ARGV[5] reason
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"acknowledged", record} | {"unchanged", record} (that difference was acknowledged
-- before: that acknowledgement) | {"matches", ""} (no difference to acknowledge)
-- | {"none", ""} (no comparison of that day) | {"changed", check} (compared again since)
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
-- whether two differences ({figure: {table, controller}}) are the same
local function same(a, b)
  for name, v in pairs(a) do
    local w = b[name]
    if w == nil or w['table'] ~= v['table'] or w['controller'] ~= v['controller'] then
      return false
    end
  end
  for name in pairs(b) do
    if a[name] == nil then return false end
  end
  return true
end
local function ms(n) return string.format('%d', n) end
local field = ARGV[1] .. '/' .. ARGV[2]
local raw = redis.call('HGET', KEYS[1], field)
if not raw then return {'none', ''} end
local check = cjson.decode(raw)
if next(check['differences']) == nil then return {'matches', ''} end
local found = redis.call('HGET', KEYS[2], field)
if found then
  local ack = cjson.decode(found)
  if same(ack['differences'], check['differences']) then return {'unchanged', found} end
end
if ARGV[3] ~= '' and ms(check['checked_at']) ~= ARGV[3] then return {'changed', raw} end
local now = string.format('%d', clock(KEYS[3]))
redis.call('HSET', KEYS[3], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[3], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[3], 'house_head') or ''
redis.call('HSET', KEYS[3], 'house_head', append(KEYS[4], seq, prev, {
  'type', 'table_counts_acknowledged', 'ts', now, 'who', ARGV[4], 'table', ARGV[1],
  'day', ARGV[2], 'differences', cjson.encode(check['differences']),
  'checked_at', ms(check['checked_at']),
  'reason', ARGV[5]}))
local record = cjson.encode({table = ARGV[1], day = ARGV[2], who = ARGV[4], reason = ARGV[5],
  at = tonumber(now), seq = tonumber(seq), checked_at = check['checked_at'],
  differences = check['differences']})
redis.call('HSET', KEYS[2], field, record)
return {'acknowledged', record}
