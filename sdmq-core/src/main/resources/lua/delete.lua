-- Forgets messages wherever they are in the bucket, the cold zset included. An id left in a ready list is skipped by
-- pop. Each id is kept for a while in the gone zset, so a restore racing with this delete cannot bring it back.
-- KEYS: meta hash, delay zset, reserved zset, gone zset, cold zset.
-- ARGV: now, how long (ms) gone ids are kept, then one or more ids.
-- Returns, per id in order, 'DELAY', 'RESERVED' or 'READY' (meta held but in neither zset), or '' when the bucket
-- does not hold it.
local meta, delay, reserved, gone, cold = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local statuses = {}
local deleted = false
for i = 3, #ARGV do
  local id = ARGV[i]
  local status = ''
  if redis.call('ZREM', delay, id) == 1 or redis.call('ZREM', cold, id) == 1 then
    status = 'DELAY'
  elseif redis.call('ZREM', reserved, id) == 1 then
    status = 'RESERVED'
  end
  if redis.call('HDEL', meta, id) == 1 and status == '' then
    status = 'READY'
  end
  if status ~= '' then
    redis.call('ZADD', gone, ARGV[1], id)
    deleted = true
  end
  statuses[#statuses + 1] = status
end
if deleted then
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', tonumber(ARGV[1]) - tonumber(ARGV[2])))
end
return statuses
