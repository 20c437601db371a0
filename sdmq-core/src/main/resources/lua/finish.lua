-- Ends a reservation and forgets the message; a message that is not reserved is left alone. The id is kept for a
-- while in the gone zset, so a restore racing with this finish cannot bring the message back.
-- KEYS: meta hash, reserved zset, gone zset.  ARGV: id, now, how long (ms) gone ids are kept.
-- Returns 1 when it was reserved, else 0.
local meta, reserved, gone = KEYS[1], KEYS[2], KEYS[3]
if redis.call('ZREM', reserved, ARGV[1]) == 1 then
  redis.call('HDEL', meta, ARGV[1])
  redis.call('ZADD', gone, ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', tonumber(ARGV[2]) - tonumber(ARGV[3])))
  return 1
end
return 0
