-- Forgets a message wherever it is in the bucket, the cold zset included. An id left in a ready list is skipped by
-- pop. The id is kept for a while in the gone zset, so a restore racing with this delete cannot bring it back.
-- KEYS: meta hash, delay zset, reserved zset, gone zset, cold zset.
-- ARGV: id, now, how long (ms) gone ids are kept.
-- Returns 'DELAY', 'RESERVED' or 'READY' (meta held but in neither zset), or nil when the bucket does not hold it.
local meta, delay, reserved, gone, cold = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id = ARGV[1]
local status = false
if redis.call('ZREM', delay, id) == 1 or redis.call('ZREM', cold, id) == 1 then
  status = 'DELAY'
elseif redis.call('ZREM', reserved, id) == 1 then
  status = 'RESERVED'
end
if redis.call('HDEL', meta, id) == 1 and not status then
  status = 'READY'
end
if status then
  redis.call('ZADD', gone, ARGV[2], id)
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', tonumber(ARGV[2]) - tonumber(ARGV[3])))
end
return status
