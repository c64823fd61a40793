-- clock: the prelude the loader puts before scripts that stamp time (not a script itself).
-- The controller clock is the Redis server's time in ms, never earlier than a time it gave
-- before, so journal times rise with seq whichever worker or host made the request.
-- settle_round.lua computes the same inline, folded into a read it makes anyway.
local function clock(counters)
  local t = redis.call('TIME')
  local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  return math.max(ms, tonumber(redis.call('HGET', counters, 'clock') or '0'))
end
