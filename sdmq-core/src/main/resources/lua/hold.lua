-- A sink holds the reservations it is about to send: each deadline becomes at least ARGV[1], never earlier, so that
-- none is handed out again while its send may still be under way.
-- KEYS: reserved zset.  ARGV: deadline, id, id, ...
-- Returns, per id in order, 1 when it is reserved (and now held until the deadline at least), else 0.
local reserved = KEYS[1]
local deadline = tonumber(ARGV[1])
local held = {}
for i = 2, #ARGV do
  local score = redis.call('ZSCORE', reserved, ARGV[i])
  if score then
    if tonumber(score) < deadline then
      redis.call('ZADD', reserved, ARGV[1], ARGV[i])
    end
    held[#held + 1] = 1
  else
    held[#held + 1] = 0
  end
end
return held
