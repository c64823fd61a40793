-- commitment: the prelude the loader puts before the scripts that arm or pay a hidden trigger
-- (not a script itself). A trigger's commitment is SHA-256 over the tag, the pool, the trigger
-- (whole cents) and the salt, each length-prefixed (jackpot/domain/triggers.py); Redis's Lua
-- has SHA-1 only, so SHA-256 is computed here, with the bit library (32-bit words). It runs
-- when a trigger is armed or paid, never on a round that only feeds a level.
local SHA256_K = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2}

local function sha256hex(msg)
  local band, bor, bxor, bnot = bit.band, bit.bor, bit.bxor, bit.bnot
  local ror, rshift, tobit = bit.ror, bit.rshift, bit.tobit
  local n = #msg
  -- padding: 0x80, zeros, then the length in bits as 64 bits (a message under 2^32 bits)
  local tail = 64 - (n + 9) % 64
  if tail == 64 then tail = 0 end
  local bits = n * 8
  msg = msg .. '\128' .. string.rep('\0', tail) .. '\0\0\0\0'
    .. string.char(math.floor(bits / 16777216) % 256, math.floor(bits / 65536) % 256,
      math.floor(bits / 256) % 256, bits % 256)
  local h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
    0x1f83d9ab, 0x5be0cd19}
  for i = 1, 8 do h[i] = tobit(h[i]) end
  local w = {}
  for chunk = 1, #msg, 64 do
    for j = 0, 15 do
      local a, b, c, d = string.byte(msg, chunk + 4 * j, chunk + 4 * j + 3)
      w[j] = tobit(a * 16777216 + b * 65536 + c * 256 + d)
    end
    for j = 16, 63 do
      local x, y = w[j - 15], w[j - 2]
      local s0 = bxor(ror(x, 7), ror(x, 18), rshift(x, 3))
      local s1 = bxor(ror(y, 17), ror(y, 19), rshift(y, 10))
      w[j] = tobit(w[j - 16] + s0 + w[j - 7] + s1)
    end
    local a, b, c, d, e, f, g, hh = h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
    for j = 0, 63 do
      local S1 = bxor(ror(e, 6), ror(e, 11), ror(e, 25))
      local ch = bxor(band(e, f), band(bnot(e), g))
      local t1 = hh + S1 + ch + SHA256_K[j + 1] + w[j]
      local S0 = bxor(ror(a, 2), ror(a, 13), ror(a, 22))
      local maj = bxor(band(a, b), band(a, c), band(b, c))
      hh, g, f, e = g, f, e, tobit(d + t1)
      d, c, b, a = c, b, a, tobit(t1 + S0 + maj)
    end
    h[1], h[2], h[3], h[4] = tobit(h[1] + a), tobit(h[2] + b), tobit(h[3] + c), tobit(h[4] + d)
    h[5], h[6], h[7], h[8] = tobit(h[5] + e), tobit(h[6] + f), tobit(h[7] + g), tobit(h[8] + hh)
  end
  local out = {}
  for i = 1, 8 do out[i] = bit.tohex(h[i], 8) end
  return table.concat(out)
end

-- whether a trigger (whole cents, as its decimal text) and its salt open `commitment`
-- (the hash as triggers.commitment() computes it)
local function opens(commitment, pool, cents, salt)
  local parts = {}
  for i, part in ipairs({'jackpot-trigger-v1', pool, cents, salt}) do
    parts[i] = #part .. ':' .. part
  end
  return commitment == sha256hex(table.concat(parts))
end
