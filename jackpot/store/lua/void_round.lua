-- void_round: void a settled round, or the bets of some of its spots, once (docs/RULES.md §6).
--
-- Python plans what the void takes back from the round's stored result (jackpot/domain/voids.py);
-- this script applies the plan against the live meters and payouts, or holds it for a second
-- person's approval. History is never rewritten: a void is new entries in the journals.
--
-- KEYS[1] {ns}/voids  hash: '<table>/<round>' -> state JSON {spots, whole, voids, held}
-- KEYS[2] {ns}/journal  the house journal   KEYS[3] {ns}/counters  (house_seq, house_head, clock)
-- KEYS[4] {ns}/payouts  hash   KEYS[5] {ns}/payouts/pending  zset
-- KEYS[2+4i], KEYS[3+4i]  pool i of the plan (the pool the round fed): its hash and journal
-- KEYS[4+4i], KEYS[5+4i]  the pool that holds its money now: the same pool, or the live pool
--   its balance went to when it was retired (retired_to, followed): its hash and journal
-- KEYS[#KEYS - 2] {ns}/payouts/settled  zset: paid and voided payouts by when, until archived
-- KEYS[#KEYS - 1] {ns}/payouts/open  zset   KEYS[#KEYS] {ns}/activity  stream: a capped copy of
--   the entries, for the console
-- ARGV[1] '<table>/<round>'  ARGV[2] step: 'void' | 'approve' | 'refuse' (a person says no
--   to the void awaiting approval, or the one who asked withdraws it: journaled
--   `void_refused`, nothing moves)
-- ARGV[3] the plan JSON (void), planned against the spots void before it (`before`); on
--         approve the held plan is applied
-- ARGV[4] who (the key)  ARGV[5] the person acting as shown (name and number)  ARGV[6] that
-- person as compared: the register's id (D232; a table's key: the key itself)  ARGV[7] the reason (approve: the approver's
-- note)  ARGV[8] the approval threshold in cents (0: never), compared here with the plan's
-- pays on every step (docs/RULES.md §6, D226)
-- ARGV[9] JSON list: the id of the pool that holds the money of plan pool i now
-- uses: clock(), append(), BOOKS, balanced() and as_journaled(), put before this script
-- A pool's counters: a void's seed part (its entry's `seed_units`: the top-up's seed less the
-- seed given back) goes to `seed_units`, as a hit's reset does, and the rest of the change
-- (`void_units` in the entry, less that part) to `void_units` (docs/DECISIONS.md D251)
-- returns: {'voided', state} | {'awaiting', state} | {'unchanged', state}
--   | {'stale', state} (planned against other void spots: plan again)
--   | {'held_other', state} (another void of the round awaits approval)
--   | {'nothing', state} (approve, refuse: no void awaits approval)
--   | {'refused', state} (refuse: the void held is dropped, journaled)
--   | {'awaiting', state} (approve: a first approval, journaled `void_approved`, or that
--     approval resent: nothing written)
--   | {'same_person', state} (approve: the person who asked for the void, or who approved
--     it first)
--   | {'paid', payout, status} (a jackpot of the void was paid, or confirmed paid)
--   | {'missing_pool', id} | {'tampered', id} | {'overflow', id}
--   | {'retired', id} (the round's pool was retired with no record of where its money went)
--   | {'rerouted', id} (a pool was retired since the routes were found: find them again)
activity = KEYS[#KEYS]
local UNIT = 10000
local MAX_UNITS = 1e15
local function int(n) return string.format('%d', n) end

local field, step = ARGV[1], ARGV[2]
local who, label, person, reason = ARGV[4], ARGV[5], ARGV[6], ARGV[7]

-- The one rule of people behind a void (docs/RULES.md §6, D226): a void whose pays (fixed,
-- envy and jackpots) reach the approval threshold needs two distinct people, one below it;
-- a table's key (`table:<id>`) is a device, not a person: it asks, and people approve. Those
-- counted are the one who asked (a person's key) and each approval, by distinct keys of
-- distinct people (as compared). Checked on the step that applies the void, whatever came
-- before. The pays counted are the round's: this void's and those of its voids before it
-- (D236), so one person cannot cancel a large round alone in parts, spot by spot.
local threshold = tonumber(ARGV[8]) or 0
local function a_person(key) return string.sub(key, 1, 6) ~= 'table:' end
local raw = redis.call('HGET', KEYS[1], field)
local state = raw and cjson.decode(raw) or {spots = {}, whole = false, voids = {}}
local function people_needed(p)
  local pays = tonumber(p.fixed) + tonumber(p.envy) + tonumber(p.jackpot)
  for _, v in ipairs(state.voids) do pays = pays + (tonumber(v.pays) or 0) end
  if threshold > 0 and pays >= threshold then return 2 end
  return 1
end
local shown = raw or ''

local done = {}
for _, s in ipairs(state.spots) do done[s] = true end
local function same_spots(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end
local function sorted_done()
  local out = {}
  for s in pairs(done) do table.insert(out, s) end
  table.sort(out)
  return out
end

if step == 'refuse' then
  local held = state.held
  if not held then return {'nothing', shown} end
  local now = clock(KEYS[3])
  local seq = tonumber(redis.call('HGET', KEYS[3], 'house_seq') or '0') + 1
  local p = held.plan
  local head = append(KEYS[2], int(seq), redis.call('HGET', KEYS[3], 'house_head') or '',
    {'type', 'void_refused', 'ts', int(now), 'table', p.table, 'round', p.round, 'who', who,
      'person', label, 'requested_by', held.who, 'asked_by', held.label or '',
      'spots', table.concat(p.spots, ','), 'whole', p.whole and '1' or '0',
      'pays', int(tonumber(p.fixed) + tonumber(p.envy) + tonumber(p.jackpot)),
      'withdrawn', (who == held.who or person == held.person) and '1' or '0',
      'asked_reason', held.reason, 'reason', reason})
  redis.call('HSET', KEYS[3], 'house_seq', int(seq), 'house_head', head, 'clock', int(now))
  state.held = nil
  local json = cjson.encode(state)
  redis.call('HSET', KEYS[1], field, json)
  return {'refused', json}
end

local plan, requested_by
if step == 'approve' then
  local held = state.held
  if not held then
    for _, v in ipairs(state.voids) do
      if v.approved_by then return {'unchanged', shown} end
    end
    return {'nothing', shown}
  end
  if who == held.who or person == held.person then return {'same_person', shown} end
  local approvals, resent = held.approvals or {}, false
  for _, a in ipairs(approvals) do
    if who == a.who then resent = true
    elseif person == a.person then return {'same_person', shown} end
  end
  plan, requested_by = held.plan, held
  local people = (a_person(held.who) and 1 or 0) + #approvals + (resent and 0 or 1)
  if people < people_needed(plan) then
    if resent then return {'awaiting', shown} end  -- the same approval again: nothing written
    -- a first approval: recorded and journaled; the void waits for another person
    local now = clock(KEYS[3])
    table.insert(approvals, {who = who, label = label, person = person, note = reason, at = now})
    held.approvals = approvals
    local seq = tonumber(redis.call('HGET', KEYS[3], 'house_seq') or '0') + 1
    local head = append(KEYS[2], string.format('%d', seq),
      redis.call('HGET', KEYS[3], 'house_head') or '', {'type', 'void_approved',
      'ts', string.format('%d', now), 'table', plan.table, 'round', plan.round, 'who', who,
      'person', label, 'requested_by', held.who, 'approvals', string.format('%d', #approvals),
      'needed', string.format('%d', people_needed(plan)), 'note', reason})
    redis.call('HSET', KEYS[3], 'house_seq', string.format('%d', seq), 'house_head', head,
      'clock', string.format('%d', now))
    local json = cjson.encode(state)
    redis.call('HSET', KEYS[1], field, json)
    return {'awaiting', json}
  end
else
  plan = cjson.decode(ARGV[3])
  local covered = plan.whole == false or state.whole
  for _, s in ipairs(plan.spots) do covered = covered and done[s] == true end
  if covered and (#plan.spots > 0 or state.whole) then return {'unchanged', shown} end
  if not same_spots(plan.before, sorted_done()) then return {'stale', shown} end
  if state.held then
    local held = state.held.plan
    if same_spots(held.spots, plan.spots) and held.whole == plan.whole then
      return {'awaiting', shown}
    end
    return {'held_other', shown}
  end
end

-- a jackpot paid (or confirmed paid, awaiting its approval) is not voided here: that is an
-- adjustment's business, and the refusal names it. So is one paid and voided since (its own
-- void moved no money, D52): the money left the cage, and the round's void would put it back
-- on the meter all the same. So is one confirmed paid and disputed since, or voided from that
-- dispute: its confirmation (payer, witness, slip) stands in its record, and a dispute, one
-- person's step that moves nothing, does not bring the money back to the cage (D291)
local payouts = {}
local PAID = {paid = true, awaiting_approval = true}
local function held(id)
  local found = redis.call('HGET', KEYS[4], id)
  if not found then return nil end
  local payout = cjson.decode(found)
  if PAID[payout.status] then return payout.status end
  local confirmed = payout.confirmed_by ~= nil and payout.confirmed_by ~= cjson.null
  if payout.status == 'void' and PAID[payout.voided_from or ''] then return 'void_after_paid' end
  if payout.status == 'void' and confirmed then return 'void_after_confirm' end
  if payout.status == 'disputed' and confirmed then return 'disputed_after_confirm' end
  payouts[id] = payout
  return nil
end
for _, pp in ipairs(plan.pools) do
  for _, jp in ipairs(pp.jackpots) do
    local paid = held(jp.id)
    if paid then return {'paid', jp.id, paid} end
  end
  for _, id in ipairs(pp.hand_pays or {}) do  -- fixed and envy pays held as hand pays
    local paid = held(id)
    if paid then return {'paid', id, paid} end
  end
end

local now = clock(KEYS[3])
local stamp = int(now)
local spots_text = table.concat(plan.spots, ',')
local house_seq = tonumber(redis.call('HGET', KEYS[3], 'house_seq') or '0')
local house_head = redis.call('HGET', KEYS[3], 'house_head') or ''
local function house(fields)
  house_seq = house_seq + 1
  house_head = append(KEYS[2], int(house_seq), house_head, fields)
end

if step == 'void' and (a_person(who) and 1 or 0) < people_needed(plan) then
  state.held = {plan = plan, who = who, label = label, person = person, reason = reason, at = now,
    approvals = {}}
  house({'type', 'void_requested', 'ts', stamp, 'table', plan.table, 'round', plan.round,
    'who', who, 'person', label, 'spots', spots_text, 'whole', plan.whole and '1' or '0',
    'pays', int(tonumber(plan.fixed) + tonumber(plan.envy) + tonumber(plan.jackpot)),
    'reason', reason})
  redis.call('HSET', KEYS[3], 'house_seq', int(house_seq), 'house_head', house_head,
    'clock', stamp)
  local json = cjson.encode(state)
  redis.call('HSET', KEYS[1], field, json)
  return {'awaiting', json}
end

-- why the round is void: the reason of the one who asked (an approver's is a note)
local why = requested_by and requested_by.reason or reason

-- every pool's new balances in locals: nothing is written until every check has passed.
-- A round's pool retired since (retired_to) holds none of its money: the pool its balance
-- went to does (routes: Python followed the retirements), and the void lands there; a
-- retired pool's money never moves here, so no seed ever funds it (docs/DECISIONS.md D230).
local routes = cjson.decode(ARGV[9] ~= '' and ARGV[9] or '[]')
local books, order = {}, {}
local function open(key, journal, id)
  local p = books[key]
  if p then return p end
  local h = read_books(key)
  if not h[1] then return nil, {'missing_pool', id} end
  if not balanced(h) or not as_journaled(journal, h[1], h[2]) then return nil, {'tampered', id} end
  p = {key = key, journal = journal, id = id, v = tonumber(h[1]), r = tonumber(h[2]),
    reset = tonumber(h[3]) * UNIT, cap = tonumber(h[6]), seq = tonumber(h[8]), head = h[9] or '',
    retired = h[10] == 'retired', trigger = h[18], delta = 0, seeded = 0, topped = 0,
    returned = 0, moves = false}
  books[key] = p
  table.insert(order, p)
  return p
end

local moved = {}
for i, pp in ipairs(plan.pools) do
  local fed, err = open(KEYS[2 + 4 * i], KEYS[3 + 4 * i], pp.id)
  if not fed then return err end
  local m = fed
  if KEYS[4 + 4 * i] ~= KEYS[2 + 4 * i] then
    if not fed.retired then return {'rerouted', pp.id} end  -- routed while it was live
    m, err = open(KEYS[4 + 4 * i], KEYS[5 + 4 * i], routes[i])
    if not m then return err end
    if m.retired then return {'rerouted', m.id} end  -- retired too since it was routed
  elseif fed.retired then
    return {'retired', pp.id}  -- retired with no record of where its money went
  end
  local v0, r0 = m.v, m.r
  local tv, tr = tonumber(pp.to_visible), tonumber(pp.to_reserve)
  local fr, seed = tonumber(pp.reset_from_reserve), tonumber(pp.reset_seed)
  local back = 0
  for _, jp in ipairs(pp.jackpots) do back = back + tonumber(jp.amount) end
  -- the jackpots back on the meter less the funding of their resets, the contributions out
  local v, r = v0 - tv + back * UNIT - fr - seed, r0 - tr + fr
  if r < 0 then v, r = v + r, 0 end  -- a reserve spent since: the meter gives it back
  -- a must-hit-by or mystery level's meter moves toward its hidden trigger by wagers alone
  -- (a level made one since the round): what a void gives back goes to its reserve
  local level = 0
  if m.trigger and v > v0 then level, v, r = v - v0, v0, r + v - v0 end
  local over = 0
  if m.cap >= 0 and v > m.cap * UNIT then over, v = v - m.cap * UNIT, m.cap * UNIT end
  r = r + over
  -- as after any hit: back to the floor, from the reserve, then the house. The floor is the
  -- reset, but never above the meter before this void nor, in the pool the round fed, above
  -- the floor recorded with the round (its reset then): a reset raised since is not a void's
  local floor = math.min(m.reset, v0)
  if m == fed and (pp.floor or '') ~= '' then floor = math.min(floor, tonumber(pp.floor)) end
  local top_r, top_s = 0, 0
  if v < floor then
    top_r = math.min(floor - v, r)
    top_s = floor - v - top_r
    r, v = r - top_r, floor
  end
  if v > MAX_UNITS or r > MAX_UNITS then return {'overflow', m.id} end
  local delta = (v + r) - (v0 + r0)
  -- the house's part of it is seed funding, as a hit's reset is (D251): the seed it tops the
  -- meter up with, less the seed of the voided hits' resets it gives back; the rest is the
  -- void's own (jackpots back, contributions out)
  local seeded = top_s - seed
  m.v, m.r, m.moves = v, r, true
  m.delta, m.seeded = m.delta + delta - seeded, m.seeded + seeded
  m.topped, m.returned = m.topped + top_s, m.returned + seed  -- each only rises (D264)
  moved[i] = {fed = fed, m = m, fields = {'type', 'void', 'ts', stamp, 'table', plan.table,
      'round', plan.round, 'who', who, 'spots', spots_text, 'wagered', plan.wagered,
      'fed_pool', pp.id,
      'contributions_units', int(tv + tr), 'to_visible_units', int(tv), 'to_reserve_units', int(tr),
      'jackpots', int(#pp.jackpots), 'jackpots_cents', int(back),
      'reset_from_reserve_units', int(fr), 'seed_returned_units', int(seed),
      'overflow_units', int(over), 'to_level_reserve_units', int(level),
      'topup_from_reserve_units', int(top_r),
      'topup_seed_units', int(top_s), 'void_units', int(delta), 'seed_units', int(seeded),
      'reason', why,
      'value_units', int(v), 'reserve_units', int(r)}}
end

-- apply: the jackpots void (in the journal of the pool they were won from), each void entry
-- (in the journal of the pool it moved), the house's, the round's state
for i, pp in ipairs(plan.pools) do
  local f, m = moved[i].fed, moved[i].m
  local voided = {}
  for _, jp in ipairs(pp.jackpots) do table.insert(voided, jp.id) end
  for _, id in ipairs(pp.hand_pays or {}) do table.insert(voided, id) end
  for _, pid in ipairs(voided) do
    local jp = {id = pid}
    local payout = payouts[jp.id]
    if payout and payout.status ~= 'void' then
      local from = payout.status
      payout.status, payout.voided_by, payout.voided_at, payout.voided_from = 'void', who, now, from
      payout.note = 'round voided: ' .. why
      payout.void_request = nil  -- a void of it asked alone: the round's void, approved, is it
      redis.call('HSET', KEYS[4], jp.id, cjson.encode(payout))
      redis.call('ZREM', KEYS[5], jp.id)
      redis.call('ZREM', KEYS[#KEYS - 1], jp.id)
      redis.call('ZADD', KEYS[#KEYS - 2], now, jp.id)
      f.seq = f.seq + 1
      f.head = append(f.journal, int(f.seq), f.head, {'type', 'payout_voided', 'ts', stamp,
        'who', who, 'payout', jp.id, 'table', plan.table, 'round', plan.round,
        'spot', tostring(payout.spot), 'amount', int(payout.amount), 'note', payout.note,
        'from', from})
    end
  end
  m.seq = m.seq + 1
  m.head = append(m.journal, int(m.seq), m.head, moved[i].fields)
end
for _, p in ipairs(order) do
  redis.call('HSET', p.key, 'seq', int(p.seq), 'head', p.head)
  if p.moves then
    redis.call('HSET', p.key, 'value', int(p.v), 'reserve', int(p.r))
    redis.call('HINCRBY', p.key, 'void_units', int(p.delta))
    redis.call('HINCRBY', p.key, 'seed_units', int(p.seeded))
    -- seed put in and seed given back apart, each only rising (the metrics' counters, D264)
    if p.topped > 0 then redis.call('HINCRBY', p.key, 'seed_in_units', int(p.topped)) end
    if p.returned > 0 then
      redis.call('HINCRBY', p.key, 'seed_returned_units', int(p.returned))
    end
  end
end

local by = requested_by and requested_by.who or who
local entry_fields = {'type', 'void', 'ts', stamp, 'table', plan.table, 'round', plan.round,
  'who', who, 'spots', spots_text, 'whole', plan.whole and '1' or '0', 'bets', int(plan.bets),
  'wagered', plan.wagered, 'fixed', plan.fixed, 'envy', plan.envy, 'jackpot', plan.jackpot,
  'reason', why, 'requested_by', by,
  -- as shown: the person who asked (credited with the void) and, on approval, who approved
  'person', requested_by and requested_by.label or label,
  'approver', requested_by and label or '',
  'note', requested_by and reason or ''}  -- on approval, the approver's note
local firsts = {}  -- the keys that approved before the one applying it (void_approved)
for _, a in ipairs(requested_by and requested_by.approvals or {}) do
  table.insert(firsts, a.who)
end
if #firsts > 0 then
  table.insert(entry_fields, 'approved_first_by')
  table.insert(entry_fields, table.concat(firsts, ','))
end
house(entry_fields)
redis.call('HSET', KEYS[3], 'house_seq', int(house_seq), 'house_head', house_head, 'clock', stamp)

for _, s in ipairs(plan.spots) do done[s] = true end
state.spots = sorted_done()
state.whole = state.whole or plan.whole
local entry = {spots = plan.spots, whole = plan.whole, at = now, pays = int(tonumber(plan.fixed)
  + tonumber(plan.envy) + tonumber(plan.jackpot)),
  wagered = plan.wagered, who = by, person = requested_by and requested_by.label or label,
  reason = why}
if requested_by then
  entry.approved_by, entry.approver = who, label
  local approvals = {}
  for _, a in ipairs(requested_by.approvals or {}) do
    table.insert(approvals, {approved_by = a.who, approver = a.label, at = a.at})
  end
  table.insert(approvals, {approved_by = who, approver = label, at = now})
  entry.approvals = approvals
end
table.insert(state.voids, entry)
state.held = nil
local json = cjson.encode(state)
redis.call('HSET', KEYS[1], field, json)
return {'voided', json}
