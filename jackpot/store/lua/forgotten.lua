-- forgotten.lua: the rounds of a table whose records have left Redis (the archiver trims a
-- record once it is archived), in a layered Bloom filter, so that no report settles one of
-- them again whatever its dealt_at says (docs/DECISIONS.md D225). One string a table,
-- {ns}/forgotten/<table>; the table's hash counts what it holds (`forgotten`). Layer i holds
-- 65,536 x 2^i rounds at 16 bits a round, after the layers before it; a round's probes
-- (jackpot/store/forgotten.py: 7 numbers below 2^32 from its SHA-256) set or test one bit
-- each in a layer. A round never forgotten is found in a full layer by chance about once in
-- 1,400: the caller then asks the archive, which has the last word.
local FORGOTTEN_FIRST_BITS = 1048576
local FORGOTTEN_MAX_BITS = 4294967296  -- a Redis string's 512 MB: 11 layers, 268 M rounds

-- true when every probe's bit is set in one of the layers that hold `n` rounds
local function forgotten(key, n, probes)
  local start, size, held = 0, FORGOTTEN_FIRST_BITS, 0
  while held < n do
    local all = true
    for i = 1, #probes do
      if redis.call('GETBIT', key, start + math.fmod(probes[i], size)) == 0 then
        all = false
        break
      end
    end
    if all then return true end
    held, start, size = held + size / 16, start + size, size * 2
  end
  return false
end

-- set the probes' bits of the round numbered `n` (from 0) in the layer that holds it
local function forget(key, n, probes)
  local start, size, held = 0, FORGOTTEN_FIRST_BITS, FORGOTTEN_FIRST_BITS / 16
  while n >= held do
    start, size = start + size, size * 2
    held = held + size / 16
  end
  if start + size > FORGOTTEN_MAX_BITS then
    return redis.error_reply('the filter of forgotten rounds of ' .. key .. ' is full')
  end
  for i = 1, #probes do redis.call('SETBIT', key, start + math.fmod(probes[i], size), 1) end
end
