-- Ends a reservation and forgets the message; a message that is not reserved is left alone.
-- KEYS: meta hash, reserved zset.  ARGV: id.
-- Returns 1 when it was reserved, else 0.
local meta, reserved = KEYS[1], KEYS[2]
if redis.call('ZREM', reserved, ARGV[1]) == 1 then
  redis.call('HDEL', meta, ARGV[1])
  return 1
end
return 0
