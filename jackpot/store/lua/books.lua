-- books: the prelude the loader puts before the scripts that move a pool's money beside its
-- own journal entries (not a script itself): the pool's books must balance before they move.
--
-- a pool hash's fields as the scripts read them, in this order (balanced() counts on it);
-- the 17th, `trigger`, is there only for a must-hit-by or mystery level with its trigger armed
local BOOKS = {'value', 'reserve', 'reset', 'rate_bp', 'reserve_rate_bp', 'cap', 'policy', 'seq',
  'head', 'state', 'reset_initial_units', 'contrib_units', 'won_cents', 'seed_units',
  'adjust_units', 'void_units', 'trigger'}
-- ... and then the rest of such a level (hidden: the trigger and its salt, never read out)
local TRIGGER_BOOKS = {'level', 'trigger_salt', 'commitment', 'draw', 'qualifying_wager',
  'trigger_span', 'armed_seq'}

-- a pool's books: h[1..16] as BOOKS names them, then, for a level whose trigger is armed,
-- h[17] level, h[18] trigger, h[19] trigger_salt, h[20] commitment, h[21] draw,
-- h[22] qualifying_wager, h[23] trigger_span, h[24] armed_seq (false where absent). A pool
-- of hand levels, the most of them, is read in one HMGET of 17 fields: a field a hash lacks
-- costs Redis a scan of the whole hash, eight of them a fifth of the round's HMGETs.
local function read_books(key)
  local h = redis.call('HMGET', key, unpack(BOOKS))
  local trigger = h[17]
  h[17] = false
  if trigger then
    local t = redis.call('HMGET', key, unpack(TRIGGER_BOOKS))
    h[17], h[18], h[19], h[20], h[21], h[22], h[23], h[24] =
      t[1], trigger, t[2], t[3], t[4], t[5], t[6], t[7]
  end
  return h
end

-- visible + reserve = reset_initial + contributions - pays + seed + adjustments + voids
-- (RULES.md §4),
-- checked on the stored decimal texts, whose sums may pass 2^53: in limbs of 1e8 each
local LIMB = 1e8
local function limbs(s)
  s = s or '0'
  if #s <= 15 then  -- below 1e15: one exact number, split by arithmetic
    local n = tonumber(s)
    local low = math.fmod(n, LIMB)  -- takes n's sign
    return (n - low) / LIMB, low
  end
  local sign = 1
  if string.sub(s, 1, 1) == '-' then sign, s = -1, string.sub(s, 2) end
  local n = #s
  local low = tonumber(string.sub(s, math.max(n - 7, 1)))
  local high = 0
  if n > 8 then high = tonumber(string.sub(s, 1, n - 8)) end
  return sign * high, sign * low
end

-- h: the pool hash's BOOKS fields
local function balanced(h)
  local high, low = 0, 0
  local function add(text, sign)
    local a, b = limbs(text)
    high, low = high + sign * a, low + sign * b
  end
  add(h[1], 1); add(h[2], 1); add((h[13] or '0') .. '0000', 1)  -- value, reserve, pays
  add(h[11], -1); add(h[12], -1); add(h[14], -1); add(h[15], -1)  -- reset, in, seed, adjust
  add(h[16], -1)  -- voids: the net change voided rounds made (jackpots back, contributions out)
  return math.fmod(low, LIMB) == 0 and high + low / LIMB == 0
end

-- the meter and reserve are what the pool's journal last recorded (an edit that keeps the
-- sums, e.g. reserve moved to the meter, is found here)
local function as_journaled(journal, value, reserve)
  local last = redis.call('XREVRANGE', journal, '+', '-', 'COUNT', 1)[1]
  if not last then return true end  -- all of it archived and trimmed: the sums stand alone
  local f, v, r = last[2], nil, '0'  -- a pool's opening entry records no reserve: 0
  for i = 1, #f - 1, 2 do
    if f[i] == 'value_units' then v = f[i + 1] elseif f[i] == 'reserve_units' then r = f[i + 1] end
  end
  return v == nil or (v == value and r == reserve)  -- nil: a configuration entry
end
