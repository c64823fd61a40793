-- link_state: suspend or resume a pool's link (docs/DECISIONS.md D24-D27, "Link control").
--
-- KEYS[1] {ns}/pool/<id>  hash   KEYS[2] {ns}/pool/<id>/journal  stream (id = seq-0)
-- KEYS[3] {ns}/counters   hash (clock)
-- ARGV[1] the state wanted: 'running' | 'suspended'   ARGV[2] reason   ARGV[3] who
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", state} | {"unchanged", state} | {"missing"} | {"retired"}
-- Moves no money: the entry carries no balances. A pool without a `state` field runs.
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local pool, journal = KEYS[1], KEYS[2]
local wanted, reason, who = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HMGET', pool, 'seq', 'state', 'head')
if not current[1] then return {'missing'} end
local state = current[2] or 'running'
if state == 'retired' then return {'retired'} end
if state == wanted then return {'unchanged', state} end

local now = string.format('%d', clock(KEYS[3]))
local seq = string.format('%d', tonumber(current[1]) + 1)
local kind = wanted == 'running' and 'resumed' or 'suspended'
local head = append(journal, seq, current[3] or '', {'type', kind, 'ts', now, 'who', who,
  'reason', reason})
redis.call('HSET', pool, 'state', wanted, 'seq', seq, 'head', head)
redis.call('HSET', KEYS[3], 'clock', now)
return {'changed', wanted}
