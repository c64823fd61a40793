-- payout_status: move a jackpot payout from pending to paid or disputed, journaled once.
--
-- KEYS[1] {ns}/payouts  hash id -> JSON   KEYS[2] {ns}/payouts/pending  zset
-- KEYS[3] {ns}/pool/<pool>  hash (seq)     KEYS[4] {ns}/pool/<pool>/journal  stream
-- KEYS[5] {ns}/counters  hash (clock)
-- ARGV[1] payout id  ARGV[2] new status ("paid" | "disputed")  ARGV[3] who
-- ARGV[4] note (may be empty)   ARGV[5..7] a confirmation's hand pay: paid_by (a person),
-- witness, slip (each may be empty)
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", json} | {"unchanged", json} | {"missing"} | {"refused", json}
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'missing'} end
local payout = cjson.decode(raw)
if payout.status == ARGV[2] then return {'unchanged', raw} end
-- paid is final; a disputed payout may still be confirmed once the dispute is settled
if payout.status == 'paid' then return {'refused', raw} end

local now = clock(KEYS[5])
redis.call('HSET', KEYS[5], 'clock', string.format('%d', now))
payout.status = ARGV[2]
local paid = ARGV[2] == 'paid'
payout[paid and 'paid_at' or 'disputed_at'] = now
payout[paid and 'confirmed_by' or 'disputed_by'] = ARGV[3]
if ARGV[4] ~= '' then payout.note = ARGV[4] end
local hand = {}
if paid then
  payout.paid_by = ARGV[5]
  hand = {'paid_by', ARGV[5], 'witness', ARGV[6], 'slip', ARGV[7]}
  if ARGV[6] ~= '' then payout.witness = ARGV[6] end
  if ARGV[7] ~= '' then payout.slip = ARGV[7] end
end
local json = cjson.encode(payout)
redis.call('HSET', KEYS[1], ARGV[1], json)
-- the pending index holds only payouts still awaiting their first verdict
redis.call('ZREM', KEYS[2], ARGV[1])
local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
local prev = redis.call('HGET', KEYS[3], 'head') or ''
local fields = {'type', 'payout_' .. ARGV[2], 'ts', string.format('%d', now), 'who', ARGV[3],
  'payout', ARGV[1], 'table', payout.table, 'round', payout.round,
  'spot', tostring(payout.spot), 'amount', string.format('%d', payout.amount), 'note', ARGV[4]}
for _, text in ipairs(hand) do table.insert(fields, text) end
redis.call('HSET', KEYS[3], 'head', append(KEYS[4], string.format('%d', seq), prev, fields))
return {'changed', json}
