-- settle_round: apply one settled round to the meters, atomically (docs/RULES.md §4, §5).
--
-- KEYS[1] {ns}/round/<table>/<round>   hash: digest, static, dynamic, ts, who, seq (its entry's)
-- KEYS[2] {ns}/table/<table>           hash: version, last_seen, rounds; the shoe audit's
--                                      shoe, shoe_cards, prev_shoe, prev_cards (below);
--                                      forgotten: how many rounds KEYS[#KEYS - 1] holds
-- KEYS[3] {ns}/journal                 stream: the house journal (id = seq-0)
-- KEYS[4] {ns}/counters                hash: house_seq, house_head, payout, clock
-- KEYS[5] {ns}/key/<sha256>            hash: the reporting API key (must not be revoked)
-- KEYS[6] {ns}/payouts                 hash: payout id -> payout JSON
-- KEYS[7] {ns}/payouts/pending         zset: pending payout ids
-- KEYS[8+3i], KEYS[9+3i], KEYS[10+3i]  pool i: hash (with its journal's seq and head),
--                                      journal stream, last-hits list
-- KEYS[#KEYS - 1] {ns}/forgotten/<table> string: the table's rounds whose records left Redis
--                                      (forgotten.lua, put before this script)
-- KEYS[#KEYS] {ns}/controller         hash: the self-check's recorded state (store:state)
--
-- ARGV[1] report digest   ARGV[2] table config version
-- ARGV[3] plan JSON: {table, round, who, wagered, bets, fixed, envy (decimal strings),
--                     pools: [id...] (KEYS order), hits: [{pool, bet, bp, spot, player, outcome,
--                     w?, q? (a wager w below the line's qualifying wager q: w/q of the share)}],
--                     held: [{bet, kind (fixed | envy), amount, spot, player, outcome}]: pays held
--                     as hand pays, result: SHA-256 of ARGV[4] (the house entry commits it),
--                     envies: [{spot, outcome, receivers, total}],
--                     stakes?: each bet's [wager, spot, player, outcome] in settlement order,
--                     draws?: {pool id: {cents, salt, commitment, low, high}}: a trigger drawn
--                     in Python for each must-hit-by or mystery level the table feeds, armed
--                     if the round wins the level (both sent once the caller knows the
--                     table feeds such a level: {"draws", id, low, high} tells it),
--                     probes?: the round's probes of its table's filter of forgotten
--                     rounds, decimal and comma-separated, read only when the table has
--                     forgotten rounds (absent: the caller found it in neither Redis nor the
--                     archive),
--                     shoe?: the shoe audit, only when the report names its shoe: {name,
--                     cards: two bytes a card shown, in report order: '0' + its index in
--                     FULL_DECK, '0' + its copies; decks}: with the shoe's earlier rounds, no
--                     card may show more than `decks` times}
-- ARGV[4] the static part of the result (stored verbatim, returned on replay)
-- ARGV[5] '1' while the calling process's own self-check passes, else '0'
-- ARGV[6] what comes before the payout ids of this link group ('' in the main group,
--         '<group>:' in another: payout ids stay unique over every group)
--         (the store's recorded state is read here too)
--
-- returns: {"ok", "", dynamic} | {"replay", static, dynamic, ts, entry fields [name, value...]
--           (the house entry that settled it; empty for a record from before records named
--           it)} | {"conflict"}
--        | {"stale"} | {"revoked"} | {"missing_pool", id} | {"overflow", id}
--        | {"closed", id, state} (side wagers for a pool whose link is not running)
--        | {"impossible_cards", card's index in FULL_DECK, copies the shoe's earlier rounds
--           showed}
--        | {"inoperable"} (a self-check found the store or the meters not as they must be)
--        | {"tampered", id} (the pool's meters break its invariant: changed behind the
--                           controller's back; nothing is settled on them)
--        | {"forgotten"} (no record, but the table's filter names the round: its record may
--           have been archived and trimmed; nothing written: look in the archive, then plan
--           again without probes if it is not there)
--        | {"tampered", id, "trigger"} (a trigger level reached its trigger, but the trigger
--           and salt do not open the commitment, or the journal armed another, or armed or
--           revealed one after it (an old draw put back): nothing paid)
--        | {"draws", id, low, high} (a must-hit-by or mystery level fed without the bets'
--           stakes or a trigger drawn over its range, low..high cents: plan again with them)
-- dynamic = JSON {jackpots: [{id, pool, bet, amount, reset?}], pools: {id: value_cents},
--                 fed?: {id: [to visible, to reserve]}, floors: {id: units} (the floor a
--                 void tops each meter up to), at: the round's stamp in ms};
--           stored verbatim, its SHA-1 committed by the house entry as `dynamic`
--
-- Money inside is exact units of 1/10,000 cent. Lua numbers are doubles, exact below 2^53;
-- every value is kept under MAX_UNITS and products are split so none passes 2^53.
-- Nothing is written until every check has passed: a script does not roll back.

local UNIT = 10000
local MAX_UNITS = 1e15

local function int(n) return string.format('%d', n) end


local function divmod(a, b)  -- exact for non-negative integers a < 2^53, b > 0
  local r = math.fmod(a, b)
  return (a - r) / b, r
end

-- x = bp * m / (1e8 * n) cents, as floor(x) and the remainder over (1e8 * n)
local function share(bp, m, n)
  local q, r = divmod(m, UNIT)           -- m = q cents + r units
  local a1, a0 = divmod(bp * q, UNIT)    -- bp*q <= 1e4 * 1e11
  local s, t = divmod(a1, n)
  local num = t * 1e8 + a0 * UNIT + bp * r
  local extra = math.floor(num / (1e8 * n))
  return s + extra, num - extra * 1e8 * n
end

-- floor(x * w / q) cents of a share x = s + t / (1e8 * n) cents (share() above), for a bet of
-- w below the line's qualifying wager q: exact, every product below 2^53 (w < q <= 1e7,
-- n <= 1400 hits, s <= 1e11 cents)
local function scaled(s, t, n, w, q)
  local s1, s0 = divmod(s, q)
  local d = 1e8 * n
  local w1, w0 = divmod(w, UNIT)
  local qa, ra = divmod(t * w1, d)
  local fa = divmod(ra * UNIT + t * w0, d)
  return s1 * w + (divmod(s0 * w + qa * UNIT + fa, q))
end

local round_key, table_key, house_key, counters_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local apikey_key, payouts_key, pending_key = KEYS[5], KEYS[6], KEYS[7]
local digest, version = ARGV[1], ARGV[2]

-- 0. The reporting key: a revoked key is answered nothing, not even a replay (D232).
local key_state = redis.call('HMGET', apikey_key, 'role', 'revoked')
if not key_state[1] or key_state[2] then return {'revoked'} end
-- 1. Idempotency: the same report gets its first result, another report under the id a conflict.
local stored = redis.call('HMGET', round_key, 'digest', 'static', 'dynamic', 'ts', 'seq')
if stored[1] then
  if stored[1] == digest then
    -- a write, however small: a replica wait behind this call then covers the first one too
    redis.call('HINCRBY', round_key, 'replays', 1)
    -- the entry that settled it, for the caller to hold the record to before answering
    local entry = stored[5] and redis.call('XRANGE', house_key, stored[5] .. '-0',
      stored[5] .. '-0')[1]
    return {'replay', stored[2], stored[3], stored[4] or '', entry and entry[2] or {}}
  end
  return {'conflict'}
end
-- a controller whose self-check failed settles nothing (it still answers replays, above)
if ARGV[5] ~= '1' or redis.call('HGET', KEYS[#KEYS], 'store:state') == 'inoperable' then
  return {'inoperable'}
end
local plan = cjson.decode(ARGV[3])
local shoe = plan.shoe
local table_row
if shoe then
  table_row = redis.call('HMGET', table_key, 'version', 'rounds', 'shoe', 'shoe_cards',
    'prev_shoe', 'prev_cards', 'forgotten')
else
  table_row = redis.call('HMGET', table_key, 'version', 'rounds', 'forgotten')
end
if table_row[1] ~= version then return {'stale'} end

-- 1a. Once, for ever: a round whose record has left Redis is never settled again, whatever
-- its dealt_at says (docs/DECISIONS.md D225). Tested only when the table has forgotten
-- rounds: a GETBIT or two a layer.
local forgotten_n = tonumber(table_row[shoe and 7 or 3] or '0')
if plan.probes and forgotten_n > 0 then
  local probes = {}
  for n in string.gmatch(plan.probes, '%d+') do probes[#probes + 1] = tonumber(n) end
  if forgotten(KEYS[#KEYS - 1], forgotten_n, probes) then return {'forgotten'} end
end

-- 1b. The shoe audit: the cards of the shoe's earlier rounds and this one's, within the shoe.
-- The table's hash, read and written by every round anyway, keeps the counts of its shoe in
-- play and of the one before (a late report of it): 52 bytes, a digit from '0' a card. A
-- third shoe's first round replaces the older; nothing is another Redis call.
local shoe_bytes, shoe_fields
if shoe then
  local held
  if shoe.name == table_row[3] then
    held, shoe_fields = table_row[4], {'shoe_cards'}
  elseif shoe.name == table_row[5] then
    held, shoe_fields = table_row[6], {'prev_cards'}
  else  -- a new shoe: the one in play becomes the one before
    shoe_fields = {'prev_shoe', table_row[3] or '', 'prev_cards', table_row[4] or '',
      'shoe', shoe.name, 'shoe_cards'}
  end
  if held and #held == 52 then
    shoe_bytes = {string.byte(held, 1, 52)}
  else
    shoe_bytes = {}
    for i = 1, 52 do shoe_bytes[i] = 48 end
  end
  shoe.cards = {string.byte(shoe.cards, 1, -1)}
  for k = 1, #shoe.cards, 2 do
    local at, copies = shoe.cards[k] - 47, shoe.cards[k + 1] - 48
    local shown = shoe_bytes[at] - 48
    if shown + copies > shoe.decks then return {'impossible_cards', at - 1, int(shown)} end
  end
end

local counters = redis.call('HMGET', counters_key, 'payout', 'clock', 'house_seq', 'house_head')
local time = redis.call('TIME')
-- the controller clock: server time in ms, never earlier than a time it stamped before
local now = math.max(tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000),
  tonumber(counters[2] or '0'))
local wagered = plan.wagered
-- texts a round writes more than once, formatted once (string.format is most of the
-- script's own cost after its SHA-1s)
local wagered_text, bets_text = int(wagered), int(plan.bets)

-- 2. Compute every pool's new state in locals.
local pools = {}
local payout_seq = tonumber(counters[1] or '0')
local payout_seq_read = payout_seq
local jackpots = {}
local fed = {}  -- pool id -> {to visible, to reserve} units, recorded with the round
local floors = {}  -- pool id -> the meter's floor for a void, units, recorded with the round

-- (the texts of the meter and reserve last recorded are kept: the pool's HSET reuses them)
local function record(p, entry)
  if p.v ~= p.v_at then p.v_at, p.v_text = p.v, int(p.v) end
  if p.r ~= p.r_at then p.r_at, p.r_text = p.r, int(p.r) end
  local n = #entry
  entry[n + 1], entry[n + 2], entry[n + 3], entry[n + 4] =
    'value_units', p.v_text, 'reserve_units', p.r_text
  p.entries[#p.entries + 1] = entry
end

-- back to reset after the last `n` hits: the funding is kept on the last one's jackpot too,
-- for a void of those hits to give it back (jackpot/domain/voids.py)
local function top_up(p, n)
  if p.v >= p.reset then return end
  local need = p.reset - p.v
  local from_reserve = math.min(need, p.r)
  local seed = need - from_reserve
  p.r, p.v, p.d_seed = p.r - from_reserve, p.reset, p.d_seed + seed
  record(p, {'reset', 'from_reserve_units', int(from_reserve), 'seed_units', int(seed)})
  jackpots[#jackpots].reset = {int(from_reserve), int(seed), n}
end

-- extra: a trigger level's reveal, for its hit entry
local function pay(p, hit, amount, extra)
  payout_seq = payout_seq + 1
  local id = ARGV[6] .. string.format('P%06d', payout_seq)
  p.v = p.v - amount * UNIT
  p.d_hits, p.d_won = p.d_hits + 1, p.d_won + amount
  local player = hit.player
  if player == cjson.null or player == nil then player = '' end
  local entry = {'hit', 'payout', id, 'spot', int(hit.spot), 'player', player,
    'outcome', hit.outcome, 'meter_bp', int(hit.bp), 'amount', int(amount)}
  for _, f in ipairs(extra or {}) do table.insert(entry, f) end
  record(p, entry)
  local payout = {id = id, pool = p.id, table = plan.table, round = plan.round, spot = hit.spot,
    player = hit.player, outcome = hit.outcome, amount = amount, status = 'pending', created = now}
  if extra then  -- won by reaching the trigger: its reveal, as the hit entry has it
    payout.level, payout.trigger = p.level, p.trigger / UNIT
    payout.salt, payout.commitment = p.salt, p.commitment
  end
  table.insert(p.hit_records, payout)
  table.insert(jackpots, {id = id, pool = p.id, bet = hit.bet, amount = amount,
    level = extra and p.level or nil})
end

-- `w` cents wagered onto a pool: to its meter at its rate, up to its cap (the rest, overflow,
-- to its reserve), and to its reserve at the reserve rate; returns the three parts (units)
local function feed(p, w)
  local to_vis, to_res, overflow = w * p.rate, w * p.rrate, 0
  if p.cap >= 0 then
    local room = math.max(p.cap * UNIT - p.v, 0)
    if to_vis > room then overflow, to_vis = to_vis - room, room end
  end
  p.v, p.r = p.v + to_vis, p.r + to_res + overflow
  p.d_over = p.d_over + overflow
  return to_vis, to_res, overflow
end

-- a must-hit-by or mystery level's contributions, bet by bet in settlement order: the first
-- qualifying bet after whose contribution the meter has reached the trigger wins the meter
-- there (once a round), which resets and arms the trigger drawn for it. Only a bet that can
-- win it moves its meter: one below the qualifying wager, or after its win in the round,
-- puts its whole contribution in the reserve (D228), so the meter is never at or past its
-- trigger unwon, and never at a ceiling for the next qualifying bet to take.
-- One contribution entry a stretch of bets, naming each bet's part (`steps`) and whether it
-- could win (`qualifying`), so that anyone can follow the meter to the trigger.
-- the journal entry that armed the level's trigger, by the seq the pool keeps (a trigger
-- armed before it kept one: the newest `trigger_armed`); nil once archived and trimmed
local function armed_entry(p)
  local at = tonumber(p.armed_seq or '')
  if at then return redis.call('XRANGE', p.journal, int(at) .. '-0', int(at) .. '-0')[1] end
  local upto = '+'
  while true do
    local batch = redis.call('XREVRANGE', p.journal, upto, '-', 'COUNT', 256)
    for _, e in ipairs(batch) do
      if e[2][3] == 'type' and e[2][4] == 'trigger_armed' then return e end  -- after prev
    end
    if #batch < 256 then return nil end
    local before = tonumber(string.match(batch[#batch][1], '^(%d+)')) - 1
    if before < 1 then return nil end
    upto = int(before) .. '-0'
  end
end

-- whether the journal, after seq `at`, arms another trigger or reveals one (a hit,
-- `trigger_revealed`, a retirement: an entry naming `trigger_cents`). Only one trigger is
-- armed at a time, so either means the trigger armed at `at` is no longer the newest draw
-- (D228): an old draw's trigger, salt and commitment, public since its reveal, written back
-- with the seq that armed it. Read in batches, at a hit only: what Redis holds after the
-- arming (the archiver's retention at most, as old as the draw or younger).
local function superseded(journal, at)
  local from = int(at + 1) .. '-0'
  while true do
    local batch = redis.call('XRANGE', journal, from, '+', 'COUNT', 512)
    for _, e in ipairs(batch) do
      local f = e[2]
      for i = 1, #f - 1, 2 do
        if f[i] == 'trigger_cents' or (f[i] == 'type' and f[i + 1] == 'trigger_armed') then
          return true
        end
      end
    end
    if #batch < 512 then return false end
    from = int(tonumber(string.match(batch[#batch][1], '^(%d+)')) + 1) .. '-0'
  end
end

-- whether the armed trigger is the one committed: its trigger and salt open its commitment,
-- the journal's entry that armed it (while Redis still holds it: the archive has the rest)
-- names that commitment and draw, and nothing after that entry armed or revealed a trigger
-- (it is the newest draw). Checked when it pays, never on a round that only feeds the
-- level: a trigger, salt or commitment changed behind the controller's back, or an old
-- draw's put back, pays nothing.
local function committed(p)
  if not opens(p.commitment or '', p.id, p.trigger_text, p.salt or '') then return false end
  local armed = armed_entry(p)
  local at = tonumber(p.armed_seq or '')
  if not armed then  -- archived and trimmed: only an entry older than the stream's first,
    -- and nothing Redis still holds arms or reveals a trigger after it
    local first = redis.call('XRANGE', p.journal, '-', '+', 'COUNT', 1)[1]
    if at and first ~= nil and tonumber(string.match(first[1], '^(%d+)')) <= at then
      return false  -- it should be there and is not
    end
    return not superseded(p.journal, at or 0)
  end
  local f, named = armed[2], {}
  for i = 1, #f - 1, 2 do named[f[i]] = f[i + 1] end
  return named.type == 'trigger_armed' and named.commitment == p.commitment
    and named.draw == p.draw
    and not superseded(p.journal, tonumber(string.match(armed[1], '^(%d+)')))
end

local function feed_triggered(p, draw)
  local stretch
  local function open()
    stretch = {wagered = 0, bets = 0, vis = 0, res = 0, over = 0, steps = {}, q = {}}
  end
  local function close()
    if stretch.bets == 0 then return end
    record(p, {'contribution', 'wagered', int(stretch.wagered), 'bets', int(stretch.bets),
      'to_visible_units', int(stretch.vis), 'to_reserve_units', int(stretch.res + stretch.over),
      'overflow_units', int(stretch.over), 'steps', table.concat(stretch.steps, ','),
      'qualifying', table.concat(stretch.q)})
    open()
  end
  open()
  local won, vis_total, res_total = false, 0, 0
  for k, stake in ipairs(plan.stakes) do
    local w, before = stake[1], p.v
    local qualifies = w >= p.qualifying
    local to_vis, to_res, overflow = 0, w * (p.rate + p.rrate), 0
    if qualifies and not won then
      to_vis, to_res, overflow = feed(p, w)
    else  -- a bet that cannot win it feeds its reserve (the next cycle), never its meter
      p.r = p.r + to_res
    end
    vis_total, res_total = vis_total + to_vis, res_total + to_res + overflow
    stretch.wagered, stretch.bets = stretch.wagered + w, stretch.bets + 1
    stretch.vis, stretch.res, stretch.over = stretch.vis + to_vis, stretch.res + to_res,
      stretch.over + overflow
    table.insert(stretch.steps, int(to_vis))
    table.insert(stretch.q, qualifies and '1' or '0')
    if not won and qualifies and p.v >= p.trigger then
      won = true
      if not committed(p) then p.forged = true; return 0, 0 end
      close()
      local reveal = {'level', p.level, 'draw', p.draw, 'commitment', p.commitment,
        'trigger_cents', int(p.trigger / UNIT), 'salt', p.salt,
        'crossed_from_units', int(before)}
      pay(p, {bet = k - 1, spot = stake[2], player = stake[3], outcome = stake[4], bp = 10000},
        (divmod(p.v, UNIT)), reveal)
      top_up(p, 1)
      p.draw = int(tonumber(p.draw) + 1)
      p.trigger, p.salt, p.commitment = draw.cents * UNIT, draw.salt, draw.commitment
      p.armed, p.armed_high = true, int(draw.high)
      record(p, {'trigger_armed', 'draw', p.draw, 'commitment', p.commitment,
        'low', int(draw.low), 'high', int(draw.high)})
    end
  end
  close()
  return vis_total, res_total
end

for i, id in ipairs(plan.pools) do
  local base = 5 + 3 * i
  local h = read_books(KEYS[base])
  if not h[1] then return {'missing_pool', id} end
  if not balanced(h) or not as_journaled(KEYS[base + 1], h[1], h[2]) then
    return {'tampered', id}
  end
  -- a suspended link takes no side wagers (rounds without any still settle)
  if wagered > 0 and h[10] and h[10] ~= 'running' then return {'closed', id, h[10]} end
  local p = {
    id = id, key = KEYS[base], journal = KEYS[base + 1], hits_key = KEYS[base + 2],
    v = tonumber(h[1]), r = tonumber(h[2]), reset = tonumber(h[3]) * UNIT,
    rate = tonumber(h[4]), rrate = tonumber(h[5]), cap = tonumber(h[6]), policy = h[7],
    seq = tonumber(h[8]), seq_text = h[8], head = h[9] or '', entries = {}, d_in = 0, d_contrib = 0, d_over = 0, d_hits = 0,
    d_won = 0, d_seed = 0, hit_records = {},
  }
  pools[i] = p
  -- the floor a void tops the meter up to (void_round.lua): the reset in force now, or the
  -- meter below it (a reset raised since its last hit); a change made later is not a void's
  floors[id] = int(math.min(p.v, p.reset))
  local draw
  if h[18] and wagered > 0 then  -- a must-hit-by or mystery level, its trigger armed
    local low, high = string.match(h[23] or '', '^(%d+):(%d+)$')
    draw = plan.draws and plan.draws[id]
    if not plan.stakes or not draw or draw.low ~= tonumber(low) or draw.high ~= tonumber(high)
    then
      return {'draws', id, low or '', high or ''}
    end
    p.level, p.trigger, p.salt, p.commitment = h[17], tonumber(h[18]) * UNIT, h[19], h[20]
    p.draw, p.qualifying = h[21] or '0', tonumber(h[22] or '0')
    p.trigger_text, p.armed_seq = h[18], h[24]
  end
  if wagered > 0 then
    p.d_in, p.d_contrib = wagered, wagered * (p.rate + p.rrate)
    local to_vis, to_res
    if draw then
      to_vis, to_res = feed_triggered(p, draw)
      if p.forged then return {'tampered', id, 'trigger'} end
    else
      local overflow
      to_vis, to_res, overflow = feed(p, wagered)
      to_res = to_res + overflow
      record(p, {'contribution', 'wagered', wagered_text, 'bets', bets_text,
        'to_visible_units', int(to_vis), 'to_reserve_units', int(to_res),
        'overflow_units', int(overflow)})
    end
    fed[id] = {int(to_vis), int(to_res)}  -- what a void of the round takes back
  end
end

for i, p in ipairs(pools) do
  local mine = {}
  for _, hit in ipairs(plan.hits) do
    if hit.pool == i then table.insert(mine, hit) end
  end
  if #mine > 0 and p.policy == 'split' then
    local floors, total_rem, first = {}, 0, nil
    for k, hit in ipairs(mine) do
      local whole, rem = share(hit.bp, p.v, #mine)
      if hit.q then  -- below its qualifying wager: its part of the share, floored
        floors[k] = scaled(whole, rem, #mine, hit.w, hit.q)
      else
        floors[k], total_rem, first = whole, total_rem + rem, first or k
      end
    end
    -- remainder cents of the shared meter go to the first whole share in settlement order
    if first then floors[first] = floors[first] + math.floor(total_rem / (1e8 * #mine)) end
    for k, hit in ipairs(mine) do pay(p, hit, floors[k]) end
    top_up(p, #mine)
  else
    for _, hit in ipairs(mine) do
      local whole, rem = share(hit.bp, p.v, 1)
      if hit.q then whole = scaled(whole, rem, 1, hit.w, hit.q) end
      pay(p, hit, whole)
      top_up(p, 1)
    end
  end
  if p.v > MAX_UNITS or p.r > MAX_UNITS then return {'overflow', p.id} end
end

-- 2b. Fixed and envy pays from the hand-pay threshold up (plan.held): held for verification
-- as hand pays, journaled in the table's first pool's journal (they move none of its money)
local hand_pays, held_records = {}, {}
for _, h in ipairs(plan.held) do
  local p = pools[1]
  payout_seq = payout_seq + 1
  local id = ARGV[6] .. string.format('P%06d', payout_seq)
  local player = h.player
  if player == cjson.null or player == nil then player = '' end
  record(p, {'hand_pay', 'payout', id, 'kind', h.kind, 'spot', int(h.spot), 'player', player,
    'outcome', h.outcome, 'amount', int(h.amount)})
  table.insert(held_records, {id = id, kind = h.kind, pool = p.id, table = plan.table,
    round = plan.round, spot = h.spot, player = h.player, outcome = h.outcome, amount = h.amount,
    status = 'pending', created = now})
  table.insert(hand_pays, {id = id, kind = h.kind, bet = h.bet, amount = h.amount, pool = p.id})
end

-- 3. Apply: every check has passed.
local stamp = int(now)
local values = {}
for _, p in ipairs(pools) do values[p.id] = (divmod(p.v, UNIT)) end
local dynamic = cjson.encode({jackpots = jackpots, pools = values,
  fed = wagered > 0 and fed or nil, floors = floors,
  at = now,  -- at: the round's stamp (its gaming day)
  hand_pays = #hand_pays > 0 and hand_pays or nil})
local house_seq = tonumber(counters[3] or '0') + 1
local round_seq = house_seq
-- the record is bound to the chain: the entry commits both parts of the stored result
local round_seq_text = int(round_seq)
local house_head = append(house_key, round_seq_text, counters[4] or '', {'type', 'round',
  'ts', stamp, 'table', plan.table, 'round', plan.round, 'who', plan.who,
  'bets', bets_text, 'wagered', wagered_text, 'fixed', plan.fixed, 'envy', plan.envy,
  'result', plan.result, 'dynamic', redis.sha1hex(dynamic)})
for _, e in ipairs(plan.envies) do
  house_seq = house_seq + 1
  house_head = append(house_key, int(house_seq), house_head, {'type', 'envy', 'ts', stamp,
    'table', plan.table, 'round', plan.round, 'who', plan.who, 'spot', int(e.spot),
    'outcome', e.outcome, 'receivers', int(e.receivers), 'amount', int(e.total)})
end

for _, p in ipairs(pools) do
  local seq, head, seq_text = p.seq, p.head, p.seq_text
  for _, entry in ipairs(p.entries) do
    seq = seq + 1
    seq_text = int(seq)
    if entry[1] == 'trigger_armed' then p.armed_seq = seq_text end
    local fields = {'type', entry[1], 'ts', stamp, 'table', plan.table, 'round', plan.round,
      'who', plan.who}
    for k = 2, #entry do fields[k + 9] = entry[k] end
    head = append(p.journal, seq_text, head, fields)
  end
  if p.v ~= p.v_at then p.v_text = int(p.v) end
  if p.r ~= p.r_at then p.r_text = int(p.r) end
  redis.call('HSET', p.key, 'value', p.v_text, 'reserve', p.r_text, 'seq', seq_text,
    'head', head)
  if p.armed then  -- won this round: the trigger drawn for it, hidden as the one before
    redis.call('HSET', p.key, 'trigger', int(p.trigger / UNIT), 'trigger_salt', p.salt,
      'commitment', p.commitment, 'draw', p.draw, 'armed_at', stamp, 'armed_seq', p.armed_seq,
      'armed_high', p.armed_high)
  end
  if p.d_in > 0 then
    redis.call('HINCRBY', p.key, 'in_cents', wagered_text)
    redis.call('HINCRBY', p.key, 'bets', bets_text)
    redis.call('HINCRBY', p.key, 'contrib_units', int(p.d_contrib))
    if p.d_over > 0 then redis.call('HINCRBY', p.key, 'overflow_units', int(p.d_over)) end
  end
  if p.d_hits > 0 then
    redis.call('HINCRBY', p.key, 'hits', int(p.d_hits))
    redis.call('HINCRBY', p.key, 'won_cents', int(p.d_won))
    if p.d_seed > 0 then
      redis.call('HINCRBY', p.key, 'seed_units', int(p.d_seed))
      -- the house's seed put in, which only rises (the metrics' counter, D264)
      redis.call('HINCRBY', p.key, 'seed_in_units', int(p.d_seed))
    end
    for _, record in ipairs(p.hit_records) do
      local json = cjson.encode(record)
      redis.call('HSET', payouts_key, record.id, json)
      redis.call('ZADD', pending_key, tonumber(string.match(record.id, 'P(%d+)$')), record.id)
      redis.call('LPUSH', p.hits_key, json)
    end
    redis.call('LTRIM', p.hits_key, 0, 24)
  end
end
for _, record in ipairs(held_records) do
  redis.call('HSET', payouts_key, record.id, cjson.encode(record))
  redis.call('ZADD', pending_key, tonumber(string.match(record.id, 'P(%d+)$')), record.id)
end
redis.call('HSET', counters_key, 'house_seq',
  house_seq == round_seq and round_seq_text or int(house_seq), 'house_head', house_head,
  'clock', stamp, 'payout', payout_seq == payout_seq_read and (counters[1] or '0')
  or int(payout_seq))

redis.call('HSET', round_key, 'digest', digest, 'static', ARGV[4], 'dynamic', dynamic,
  'ts', stamp, 'who', plan.who, 'seq', round_seq_text)
local rounds = int(tonumber(table_row[2] or '0') + 1)
if shoe then
  for k = 1, #shoe.cards, 2 do
    local at = shoe.cards[k] - 47
    shoe_bytes[at] = shoe_bytes[at] + shoe.cards[k + 1] - 48
  end
  table.insert(shoe_fields, string.char(unpack(shoe_bytes)))
  redis.call('HSET', table_key, 'last_seen', stamp, 'rounds', rounds, unpack(shoe_fields))
else
  redis.call('HSET', table_key, 'last_seen', stamp, 'rounds', rounds)
end
-- the caller has the static part already: only a replay needs it back
return {'ok', '', dynamic}
