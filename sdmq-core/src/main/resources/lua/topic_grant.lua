-- Grants up to `wanted` messages of a topic to one pop: no more than the rate limit in this second's window and no
-- more than the in-flight limit reserved at once. Reservations whose deadline passed no longer count. Each slot
-- granted under an in-flight limit is held by a placeholder `token:i` until topic_taken.lua puts the real ids there
-- (or, should the instance die first, until `hold` ms pass).
-- KEYS: the window's rate counter, the topic's in-flight zset (id -> deadline).
-- ARGV: now, wanted, rate limit ('' for none), in-flight limit ('' for none), token, hold ms.
-- Returns how many messages the pop may take.
local rate, inflight = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local granted = tonumber(ARGV[2])
if ARGV[4] ~= '' then
  redis.call('ZREMRANGEBYSCORE', inflight, '-inf', ARGV[1])
  local free = tonumber(ARGV[4]) - redis.call('ZCARD', inflight)
  granted = math.max(math.min(granted, free), 0)
end
if ARGV[3] ~= '' then
  local free = tonumber(ARGV[3]) - tonumber(redis.call('GET', rate) or '0')
  granted = math.max(math.min(granted, free), 0)
  if granted > 0 then
    redis.call('INCRBY', rate, granted)
    redis.call('PEXPIRE', rate, 2000)
  end
end
if ARGV[4] ~= '' and granted > 0 then
  local hold = string.format('%.0f', now + tonumber(ARGV[6]))
  for i = 1, granted do
    redis.call('ZADD', inflight, hold, ARGV[5] .. ':' .. i)
  end
end
return granted
