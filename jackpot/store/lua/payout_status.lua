-- payout_status: move a jackpot payout from pending to paid or disputed, journaled once.
--
-- KEYS[1] {ns}/payouts  hash id -> JSON   KEYS[2] {ns}/payouts/pending  zset
-- KEYS[3] {ns}/pool/<pool>  hash (seq)     KEYS[4] {ns}/pool/<pool>/journal  stream
-- ARGV[1] payout id  ARGV[2] new status ("paid" | "disputed")  ARGV[3] now (ms)
-- ARGV[4] who  ARGV[5] note (may be empty)
-- returns: {"changed", json} | {"unchanged", json} | {"missing"} | {"refused", json}
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'missing'} end
local payout = cjson.decode(raw)
if payout.status == ARGV[2] then return {'unchanged', raw} end
-- paid is final; a disputed payout may still be confirmed once the dispute is settled
if payout.status == 'paid' then return {'refused', raw} end

payout.status = ARGV[2]
payout[ARGV[2] == 'paid' and 'paid_at' or 'disputed_at'] = tonumber(ARGV[3])
payout[ARGV[2] == 'paid' and 'paid_by' or 'disputed_by'] = ARGV[4]
if ARGV[5] ~= '' then payout.note = ARGV[5] end
local json = cjson.encode(payout)
redis.call('HSET', KEYS[1], ARGV[1], json)
if ARGV[2] == 'paid' then redis.call('ZREM', KEYS[2], ARGV[1]) end
local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
redis.call('XADD', KEYS[4], seq .. '-0', 'type', 'payout_' .. ARGV[2], 'ts', ARGV[3],
  'who', ARGV[4], 'payout', ARGV[1], 'table', payout.table, 'round', payout.round,
  'spot', tostring(payout.spot), 'amount', string.format('%d', payout.amount), 'note', ARGV[5])
return {'changed', json}
