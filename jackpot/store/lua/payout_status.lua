-- payout_status: one step of a jackpot payout's verification, journaled once.
--
--   pending ---confirm---> paid                       (amount below the approval threshold)
--   pending ---confirm---> awaiting_approval --approve (another key, another person)--> paid
--   pending | awaiting_approval ---dispute---> disputed ---confirm---> (as from pending)
--   paid | disputed | awaiting_approval ---void---> void   (final; nothing is owed any more)
--
-- Two people cancel a jackpot from the approval threshold up (docs/RULES.md §5, D226): there a
-- void only asks (`void_request` on the payout, journaled `payout_void_requested`; its status
-- stays), and another key of another person applies it (approve_void). The rule is checked
-- here, where the status changes, whatever order the steps came in. Any other step that moves
-- the payout (confirm, approve, dispute) withdraws the request (`payout_void_withdrawn`): an
-- approval never voids a payout in another status than the one the void was asked from.
--
-- A void asked may be refused (refuse_void, with a reason): by another person, or withdrawn by
-- the one who asked (compared by person id, else by key; never by name). The request is
-- dropped and journaled `payout_void_refused` (`withdrawn` 1 or 0); nothing else changes. A
-- paid payout with a void asked is in the open index too, so that every supervisor's list of
-- voids awaiting approval reads it from there (D286).
--
-- A step that the payout has already taken (confirm of a paid or awaiting payout, approve of
-- a paid one, dispute of a disputed one, void of a void one, a void asked again) changes
-- nothing: a double click or a resent request pays once. `expect`, when given, is the status
-- the caller last saw: a payout that changed meanwhile is refused as stale before anything
-- else is decided.
--
-- KEYS[1] {ns}/payouts  hash id -> JSON   KEYS[2] {ns}/payouts/pending  zset
-- KEYS[3] {ns}/pool/<pool>  hash (seq)     KEYS[4] {ns}/pool/<pool>/journal  stream
-- KEYS[5] {ns}/counters  hash (clock)   KEYS[6] {ns}/payouts/open  zset (past a first verdict,
--                                                  still owing)
-- KEYS[7] {ns}/payouts/settled  zset: paid and voided payouts by when, until archived
-- ARGV[1] payout id  ARGV[2] step (confirm | approve | dispute | void | approve_void
--   | refuse_void)
-- ARGV[3] who (the key)
-- ARGV[4] note (may be empty)  ARGV[5..7] a confirmation's paid_by (a person), witness, slip
-- (each may be empty)  ARGV[8] expect: the status the caller saw ('' = any)
-- ARGV[9] the approval threshold in cents (0: no second person needed), for confirm and void
-- ARGV[10] the person acting as shown, name and number (`Dana Reyes (E1042)`; a key held by
-- nobody: the key): a confirmation records it as `confirmer`, an approval as `approver`, a
-- void's request and approval as theirs
-- ARGV[11..13] the ids of the register (jackpot.domain.people, D232) of the one acting and of a
-- confirmation's payer and witness: what every rule of people compares, never a name. A
-- confirmation keeps them (`confirmer_id`, `paid_by_id`, `witness_id`) and refuses a witness who paid or confirms; an approval
-- by the confirming key, or by the person who confirmed, paid or witnessed, is refused; so is
-- a void's approval by the key or the person who asked for it
-- ARGV[14] the acting person's name as compared before the register (person_of): for a payout
-- confirmed, or a void asked, before it, whose `people` are such names
-- uses: clock(counters) from clock.lua and append() from chain.lua, put before this script
-- returns: {"changed", json} | {"unchanged", json} | {"missing"} | {"refused", json}
--   | {"stale", json} | {"same_person", json}
--   | {"witness_paid", json} | {"witness_confirms", json} (confirm: nothing is written)
--   | {"asked", json} (void: held for a second person's approval, journaled)
--   | {"awaiting", json} (void: asked already; nothing written)
--   | {"nothing", json} (approve_void, refuse_void: no void awaits approval)
--   | {"void_held", json, held} (confirm, approve: a void of the payout's round awaiting a
--     second person's approval covers it; `held` is that void's JSON, nothing is written)
-- KEYS[8] {ns}/voids  hash: '<table>/<round>' -> the round's void state (void_round.lua)
-- KEYS[#KEYS] {ns}/activity  stream: a capped copy of the entries, for the console
activity = KEYS[#KEYS]  -- the activity stream (chain.lua): this step's entries
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'missing'} end
local payout = cjson.decode(raw)
local step, who, note = ARGV[2], ARGV[3], ARGV[4]
local status = payout.status
if ARGV[8] ~= '' and status ~= ARGV[8] then return {'stale', raw} end
local me = ARGV[11]
-- the one rule of two people over a jackpot's amount: from the threshold up (0: never)
local threshold = tonumber(ARGV[9])
local two_people = threshold > 0 and payout.amount >= threshold
local asked = payout.void_request  -- a void awaiting a second person's approval, if any

-- the status each step moves to, and the statuses it leaves from
local target
if step == 'confirm' then
  if status == 'paid' or status == 'awaiting_approval' then return {'unchanged', raw} end
  if status ~= 'pending' and status ~= 'disputed' then return {'refused', raw} end
  -- the witness is another person than the payer and than the one confirming
  if ARGV[13] == ARGV[12] then return {'witness_paid', raw} end
  if ARGV[13] == me then return {'witness_confirms', raw} end
  if two_people then target = 'awaiting_approval'
  else target = 'paid' end
elseif step == 'approve' then
  -- two-person control: the approver is another key and another person than the one who
  -- confirmed, paid or witnessed, by their ids (a payout confirmed before the register: its
  -- names as they were compared then, and before `people` was kept, lower-cased). Checked
  -- before a resent approval is answered too: one of them is told no, not "done already".
  local function may_not_approve()
    if who == payout.confirmed_by then return true end
    if payout.paid_by_id then
      return me == payout.confirmer_id or me == payout.paid_by_id or me == payout.witness_id
    end
    local old = ARGV[14]
    local people = payout.people or {confirmer = string.lower(payout.confirmer or ''),
      paid_by = string.lower(payout.paid_by or ''), witness = string.lower(payout.witness or '')}
    return old ~= '' and (old == people.confirmer or old == people.paid_by
      or old == people.witness)
  end
  if status == 'paid' then
    if payout.approved_by and may_not_approve() then return {'same_person', raw} end
    return {'unchanged', raw}
  end
  if status ~= 'awaiting_approval' then return {'refused', raw} end
  if may_not_approve() then return {'same_person', raw} end
  target = 'paid'
elseif step == 'dispute' then
  if status == 'disputed' then return {'unchanged', raw} end
  if status ~= 'pending' and status ~= 'awaiting_approval' then return {'refused', raw} end
  target = 'disputed'
elseif step == 'void' then
  if status == 'void' then return {'unchanged', raw} end
  if status == 'pending' then return {'refused', raw} end  -- dispute it first, with a reason
  -- from the threshold up a void is asked for, once: asked again (a resend, another key of
  -- the same person, or another person), it still awaits the approval
  if two_people and asked then return {'awaiting', raw} end
  target = two_people and status or 'void'
elseif step == 'approve_void' then
  if status == 'void' then return {'unchanged', raw} end
  if not asked then return {'nothing', raw} end
  if who == asked.requested_by or me == asked.compared or ARGV[14] == asked.compared then
    return {'same_person', raw}
  end
  target = 'void'
elseif step == 'refuse_void' then
  if not asked then return {'nothing', raw} end
  target = status
else
  return redis.error_reply('payout_status: unknown step ' .. step)
end

-- A round's void awaiting a second person's approval that covers this payout is decided before
-- the payout is paid (D289): paid, the jackpot could never be voided with its round
-- (void_round.lua refuses a paid jackpot), and the void would wait for an approval that can
-- only fail. Approved, the void cancels the payout; refused or withdrawn, the payout is paid.
if target == 'paid' or target == 'awaiting_approval' then
  local round_raw = redis.call('HGET', KEYS[8], payout.table .. '/' .. payout.round)
  local round_held = round_raw and cjson.decode(round_raw).held
  if round_held then
    for _, pp in ipairs(round_held.plan.pools or {}) do
      for _, jp in ipairs(pp.jackpots or {}) do
        if jp.id == ARGV[1] then return {'void_held', raw, cjson.encode(round_held)} end
      end
      for _, id in ipairs(pp.hand_pays or {}) do
        if id == ARGV[1] then return {'void_held', raw, cjson.encode(round_held)} end
      end
    end
  end
end

local now = clock(KEYS[5])
redis.call('HSET', KEYS[5], 'clock', string.format('%d', now))
local ts = string.format('%d', now)
local seq = tonumber(redis.call('HGET', KEYS[3], 'seq') or '0')
local head = redis.call('HGET', KEYS[3], 'head') or ''
local function journal(kind, fields)
  seq = seq + 1
  local all = {'type', kind, 'ts', ts, 'who', who, 'person_id', me, 'payout', ARGV[1],
    'table', payout.table, 'round', payout.round, 'spot', tostring(payout.spot), 'amount',
    string.format('%d', payout.amount)}
  for _, text in ipairs(fields) do table.insert(all, text) end
  head = append(KEYS[4], string.format('%d', seq), head, all)
  redis.call('HSET', KEYS[3], 'seq', string.format('%d', seq), 'head', head)
end

if step == 'void' and target ~= 'void' then  -- asked: held for a second person, nothing else
  payout.void_request = {requested_by = who, person = ARGV[10], compared = me, reason = note,
    at = now, from = status, person_id = me}
  local json = cjson.encode(payout)
  redis.call('HSET', KEYS[1], ARGV[1], json)
  if status == 'paid' then  -- changed: live again, and awaiting a second person (open index)
    redis.call('ZADD', KEYS[7], now, ARGV[1])
    redis.call('ZADD', KEYS[6], tonumber(string.match(ARGV[1], 'P(%d+)$')), ARGV[1])
  end
  journal('payout_void_requested', {'reason', note, 'from', status, 'person', ARGV[10]})
  return {'asked', json}
end
if step == 'refuse_void' then  -- dropped: the payout stays as it is, its status unchanged
  -- withdrawn when the one refusing is the one who asked: by the register's id, else the key
  local withdrawn = who == asked.requested_by or me == asked.compared
    or (ARGV[14] ~= '' and ARGV[14] == asked.compared)
  payout.void_request = nil
  local json = cjson.encode(payout)
  redis.call('HSET', KEYS[1], ARGV[1], json)
  if status == 'paid' then
    redis.call('ZREM', KEYS[6], ARGV[1])  -- settled again: it awaits nobody
    redis.call('ZADD', KEYS[7], now, ARGV[1])
  end
  journal('payout_void_refused', {'reason', note, 'from', asked.from or status,
    'requested_by', asked.requested_by, 'requester', asked.person,
    'requested_at', string.format('%d', asked.at), 'person', ARGV[10],
    'withdrawn', withdrawn and '1' or '0'})
  return {'changed', json}
end
if asked and step ~= 'approve_void' then
  -- another step moves the payout: the void asked of it is withdrawn, never applied to a
  -- payout in another status than the one it was asked from
  payout.void_request = nil
  journal('payout_void_withdrawn', {'reason', asked.reason, 'from', status,
    'requested_by', asked.requested_by, 'requester', asked.person, 'by_step', step})
end

local extra = {}
if step == 'confirm' then
  payout.confirmed_by, payout.confirmed_at, payout.confirmer = who, now, ARGV[10]
  payout.paid_by = ARGV[5]
  payout.witness = ARGV[6] ~= '' and ARGV[6] or nil
  payout.slip = ARGV[7] ~= '' and ARGV[7] or nil
  payout.people = nil  -- names as compared before the register: a new confirmation has ids
  payout.confirmer_id, payout.paid_by_id, payout.witness_id = me, ARGV[12], ARGV[13]
  if target == 'paid' then payout.paid_at = now end
  extra = {'paid_by', ARGV[5], 'witness', ARGV[6], 'slip', ARGV[7], 'paid_by_id', ARGV[12],
    'witness_id', ARGV[13]}
elseif step == 'approve' then
  payout.approved_by, payout.approved_at, payout.approver = who, now, ARGV[10]
  payout.approver_id = me
  payout.paid_at = now
  extra = {'paid_by', payout.paid_by or '', 'witness', payout.witness or '',
    'slip', payout.slip or '', 'confirmed_by', payout.confirmed_by, 'approver', ARGV[10]}
elseif step == 'dispute' then
  payout.disputed_by, payout.disputed_at = who, now
elseif step == 'approve_void' then
  -- the void as asked (its reason is the payout's note), applied by the second person
  payout.voided_by, payout.voided_at, payout.voided_from = who, now, status
  payout.void_requested_by, payout.void_requester = asked.requested_by, asked.person
  payout.void_requested_at, payout.void_approver = asked.at, ARGV[10]
  payout.void_requester_id, payout.void_approver_id = asked.person_id, me
  payout.void_request = nil
  extra = {'from', status, 'requested_by', asked.requested_by, 'requester', asked.person,
    'requested_at', string.format('%d', asked.at), 'approver', ARGV[10], 'approval_note', note}
  note = asked.reason
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
local fields = {'note', note}
for _, text in ipairs(extra) do table.insert(fields, text) end
journal(kind, fields)
return {'changed', json}
