-- chain: the prelude the loader puts before every script that writes a journal (not a
-- script itself). Each journal is a hash chain (docs/DECISIONS.md D81):
-- every entry carries `prev`, the hash of the entry before it ('' for a journal's first), and
-- the journal's head (the hash of its last entry) is kept beside its seq. An entry's hash is
-- the SHA-1 of prev, its seq, and each field name and value after `prev`, length-prefixed:
--   sha1(prev .. '\n' .. seq .. '\n' .. len(f1) .. ':' .. f1 .. '\n' .. ...)
-- jackpot/domain/chain.py computes the same to verify a journal.
--
-- A script of an operator's step (every clocked script) names the activity stream, its last
-- key, in `activity`: each entry it appends is copied there too, capped, for the console's
-- recent activity (a view: the journals stay the record).
local activity = nil
-- the decimal texts of the lengths hashed: Lua's own number-to-text of `#s .. ':'` goes
-- through printf's floating point, and cost a round more than its SHA-1s. The lengths under
-- 100 (nearly every field) are constants; a longer one is formatted once a call.
local lengths = {[0] = '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12',
  '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28',
  '29', '30', '31', '32', '33', '34', '35', '36', '37', '38', '39', '40', '41', '42', '43', '44',
  '45', '46', '47', '48', '49', '50', '51', '52', '53', '54', '55', '56', '57', '58', '59', '60',
  '61', '62', '63', '64', '65', '66', '67', '68', '69', '70', '71', '72', '73', '74', '75', '76',
  '77', '78', '79', '80', '81', '82', '83', '84', '85', '86', '87', '88', '89', '90', '91', '92',
  '93', '94', '95', '96', '97', '98', '99'}
local function append(stream, seq, prev, fields)
  if activity then
    redis.call('XADD', activity, 'MAXLEN', '~', '1000', '*', 'journal', stream, 'seq', seq,
      unpack(fields))
  end
  local parts = {prev, seq}
  for i = 1, #fields do
    local s = fields[i]
    local n = #s
    local text = lengths[n]
    if not text then
      text = string.format('%d', n)
      lengths[n] = text
    end
    parts[i + 2] = text .. ':' .. s
  end
  redis.call('XADD', stream, seq .. '-0', 'prev', prev, unpack(fields))
  return redis.sha1hex(table.concat(parts, '\n'))
end
