-- books: the prelude the loader puts before the scripts that move a pool's money beside its
-- own journal entries (not a script itself): the pool's books must balance before they move.
--
-- a pool hash's fields as the scripts read them, in this order (balanced() counts on it)
local BOOKS = {'value', 'reserve', 'reset', 'rate_bp', 'reserve_rate_bp', 'cap', 'policy', 'seq',
  'head', 'state', 'reset_initial_units', 'contrib_units', 'won_cents', 'seed_units',
  'adjust_units', 'void_units',
  -- a must-hit-by or mystery level (hidden: the trigger and its salt, never read out)
  'level', 'trigger', 'trigger_salt', 'commitment', 'draw', 'qualifying_wager', 'trigger_span',
  'armed_seq'}

-- visible + reserve = reset_initial + contributions - pays + seed + adjustments + voids
-- (RULES.md §4),
-- checked on the stored decimal texts, whose sums may pass 2^53: in limbs of 1e8 each
local LIMB = 1e8
local function limbs(s)
  s = s or '0'
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
