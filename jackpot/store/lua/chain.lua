-- chain: the prelude the loader puts before every script that writes a journal (not a
-- script itself). Each journal is a hash chain (docs/DECISIONS.md "A hash-chained journal"):
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
local function append(stream, seq, prev, fields)
  if activity then
    redis.call('XADD', activity, 'MAXLEN', '~', '1000', '*', 'journal', stream, 'seq', seq,
      unpack(fields))
  end
  local parts = {prev, seq}
  for i = 1, #fields do
    local s = fields[i]
    parts[i + 2] = #s .. ':' .. s
  end
  redis.call('XADD', stream, seq .. '-0', 'prev', prev, unpack(fields))
  return redis.sha1hex(table.concat(parts, '\n'))
end
