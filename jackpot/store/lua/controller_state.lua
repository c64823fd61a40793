-- controller_state: record what the latest self-check found; journal each change of state.
--
-- KEYS[1] {ns}/controller  hash, per scope: <scope>:state (operable|inoperable),
--                          <scope>:problems (JSON), <scope>:since, <scope>:checked
-- KEYS[2] {ns}/counters    hash (house_seq, house_head, clock)
-- KEYS[3] {ns}/journal     stream: the house journal
-- KEYS[4] {ns}/activity    stream: a capped copy of the entries, for the console
-- ARGV[1] 'operable' | 'inoperable'   ARGV[2] problems JSON (a sorted list; '[]' if none)
-- ARGV[3] who (the process that checked: host/pid)
-- ARGV[4] scope: 'store' (what every process finds alike: durability, pools, journals) or
--         'software@<host>' (the files one host runs from)
-- ARGV[5] when the check began (ms, the store's clock): an "operable" from a check that began
--         before an "inoperable" was recorded is older news and changes nothing
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", since} | {"unchanged", since}
--
-- Every controller process checks the store on its own; they find the same problems, so
-- only a change (another state, or other problems) is written and journaled: one
-- controller_inoperable entry when the controller stops, one controller_operable when the
-- cause is gone, whichever process saw it first.
activity = KEYS[4]
local now = string.format('%d', clock(KEYS[2]))
local scope = ARGV[4]
local state_f, problems_f, since_f = scope .. ':state', scope .. ':problems', scope .. ':since'
local current = redis.call('HMGET', KEYS[1], state_f, problems_f, since_f)
redis.call('HSET', KEYS[1], scope .. ':checked', now)
if current[1] == ARGV[1] and current[2] == ARGV[2] then
  return {'unchanged', current[3]}
end
if ARGV[1] == 'operable' and current[1] == 'inoperable'
    and tonumber(current[3]) > tonumber(ARGV[5]) then
  return {'unchanged', current[3]}
end
if not current[1] and ARGV[1] == 'operable' then
  -- the first check of a store: nothing to journal, the controller simply starts operable
  redis.call('HSET', KEYS[1], state_f, ARGV[1], problems_f, ARGV[2], since_f, now)
  return {'unchanged', now}
end
redis.call('HSET', KEYS[1], state_f, ARGV[1], problems_f, ARGV[2], since_f, now)
redis.call('HSET', KEYS[2], 'clock', now)
local seq = string.format('%d', redis.call('HINCRBY', KEYS[2], 'house_seq', 1))
local prev = redis.call('HGET', KEYS[2], 'house_head') or ''
redis.call('HSET', KEYS[2], 'house_head', append(KEYS[3], seq, prev, {'type',
  'controller_' .. ARGV[1], 'ts', now, 'who', ARGV[3], 'scope', scope, 'problems', ARGV[2]}))
return {'changed', now}
