-- payout_status: one step of a jackpot payout's verification, journaled once.
--
--   pending ---confirm---> paid                       (amount below the approval threshold)
--   pending ---confirm---> awaiting_approval --approve (another key, another person)--> paid
--   pending | awaiting_approval ---dispute---> disputed ---confirm---> (as from pending)
--   paid | disputed | awaiting_approval ---void---> void   (final; nothing is owed any more)
--
-- A step that the payout has already taken (confirm of a paid or awaiting payout, approve of
-- a paid one, dispute of a disputed one, void of a void one) changes nothing: a double click
-- or a resent request pays once. `expect`, when given, is the status the caller last saw: a
-- payout that changed meanwhile is refused as stale before anything else is decided.
--
-- KEYS[1] {ns}/payouts  hash id -> JSON   KEYS[2] {ns}/payouts/pending  zset
-- KEYS[3] {ns}/pool/<pool>  hash (seq)     KEYS[4] {ns}/pool/<pool>/journal  stream
-- KEYS[5] {ns}/counters  hash (clock)   KEYS[6] {ns}/payouts/open  zset (past a first verdict,
--                                                  still owing)
-- KEYS[7] {ns}/payouts/settled  zset: paid and voided payouts by when, until archived
-- ARGV[1] payout id  ARGV[2] step (confirm | approve | dispute | void)  ARGV[3] who (the key)
-- ARGV[4] note (may be empty)  ARGV[5..7] a confirmation's paid_by (a person), witness, slip
-- (each may be empty)  ARGV[8] expect: the status the caller saw ('' = any)
-- ARGV[9] the approval threshold in cents (0: no second person needed)
-- ARGV[10] the person acting (the key's label, else the key): a confirmation records it as
-- `confirmer`, an approval as `approver`
-- ARGV[11..13] the people as compared (jackpot.domain.people.person_of: NFKC, case folded, no
-- spaces or invisible characters) of the one acting, and of a confirmation's payer and
-- witness: a confirmation keeps them as `people`; an approval by the confirming key, or by
-- the person who confirmed, paid or witnessed, is refused
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", json} | {"unchanged", json} | {"missing"} | {"refused", json}
--   | {"stale", json} | {"same_person", json}
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'missing'} end
local payout = cjson.decode(raw)
local step, who, note = ARGV[2], ARGV[3], ARGV[4]
local status = payout.status
if ARGV[8] ~= '' and status ~= ARGV[8] then return {'stale', raw} end

-- the status each step moves to, and the statuses it leaves from
local target
if step == 'confirm' then
  if status == 'paid' or status == 'awaiting_approval' then return {'unchanged', raw} end
  if status ~= 'pending' and status ~= 'disputed' then return {'refused', raw} end
  local threshold = tonumber(ARGV[9])
  if threshold > 0 and payout.amount >= threshold then target = 'awaiting_approval'
  else target = 'paid' end
elseif step == 'approve' then
  if status == 'paid' then return {'unchanged', raw} end
  if status ~= 'awaiting_approval' then return {'refused', raw} end
  -- two-person control: the approver is another key and another person than the one who
  -- confirmed, paid or witnessed (a payout confirmed before `people` was kept: its names
  -- as they were compared then, lower-cased)
  local me = ARGV[11]
  local people = payout.people or {confirmer = string.lower(payout.confirmer or ''),
    paid_by = string.lower(payout.paid_by or ''), witness = string.lower(payout.witness or '')}
  if who == payout.confirmed_by or me == people.confirmer or me == people.paid_by
      or me == people.witness then
    return {'same_person', raw}
  end
  target = 'paid'
elseif step == 'dispute' then
  if status == 'disputed' then return {'unchanged', raw} end
  if status ~= 'pending' and status ~= 'awaiting_approval' then return {'refused', raw} end
  target = 'disputed'
elseif step == 'void' then
  if status == 'void' then return {'unchanged', raw} end
  if status == 'pending' then return {'refused', raw} end  -- dispute it first, with a reason
  target = 'void'
else
  return redis.error_reply('payout_status: unknown step ' .. step)
end

local now = clock(KEYS[5])
redis.call('HSET', KEYS[5], 'clock', string.format('%d', now))
local ts = string.format('%d', now)
local extra = {}
if step == 'confirm' then
  payout.confirmed_by, payout.confirmed_at, payout.confirmer = who, now, ARGV[10]
  payout.paid_by = ARGV[5]
  payout.witness = ARGV[6] ~= '' and ARGV[6] or nil
  payout.slip = ARGV[7] ~= '' and ARGV[7] or nil
  payout.people = {confirmer = ARGV[11], paid_by = ARGV[12], witness = ARGV[13]}
  if target == 'paid' then payout.paid_at = now end
  extra = {'paid_by', ARGV[5], 'witness', ARGV[6], 'slip', ARGV[7]}
elseif step == 'approve' then
  payout.approved_by, payout.approved_at, payout.approver = who, now, ARGV[10]
  payout.paid_at = now
  extra = {'paid_by', payout.paid_by or '', 'witness', payout.witness or '',
    'slip', payout.slip or '', 'confirmed_by', payout.confirmed_by, 'approver', ARGV[10]}
elseif step == 'dispute' then
  payout.disputed_by, payout.disputed_at = who, now
else
  payout.voided_by, payout.voided_at, payout.voided_from = who, now, status
  extra = {'from', status}
end
if note ~= '' then payout.note = note end
payout.status = target
local json = cjson.encode(payout)
redis.call('HSET', KEYS[1], ARGV[1], json)
-- the pending index holds only payouts still awaiting their first verdict; the open one those
-- past it that still owe (awaiting approval, disputed): the two are everything unsettled
redis.call('ZREM', KEYS[2], ARGV[1])
if target == 'paid' or target == 'void' then
  redis.call('ZREM', KEYS[6], ARGV[1])
  redis.call('ZADD', KEYS[7], now, ARGV[1])
else
  redis.call('ZADD', KEYS[6], tonumber(string.match(ARGV[1], 'P(%d+)$')), ARGV[1])
end

local kind = ({paid = 'payout_paid', awaiting_approval = 'payout_confirmed',
  disputed = 'payout_disputed', void = 'payout_voided'})[target]
local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
local prev = redis.call('HGET', KEYS[3], 'head') or ''
local fields = {'type', kind, 'ts', ts, 'who', who, 'payout', ARGV[1], 'table', payout.table,
  'round', payout.round, 'spot', tostring(payout.spot), 'amount',
  string.format('%d', payout.amount), 'note', note}
for _, text in ipairs(extra) do table.insert(fields, text) end
redis.call('HSET', KEYS[3], 'head', append(KEYS[4], string.format('%d', seq), prev, fields))
return {'changed', json}
