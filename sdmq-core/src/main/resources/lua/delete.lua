-- Forgets a message wherever it is in the bucket. An id left in a ready list is skipped by pop.
-- KEYS: meta hash, delay zset, reserved zset.  ARGV: id.
-- Returns 'DELAY', 'RESERVED' or 'READY' (meta held but in neither zset), or nil when the bucket does not hold it.
local meta, delay, reserved = KEYS[1], KEYS[2], KEYS[3]
local id = ARGV[1]
local status = false
if redis.call('ZREM', delay, id) == 1 then
  status = 'DELAY'
elseif redis.call('ZREM', reserved, id) == 1 then
  status = 'RESERVED'
end
if redis.call('HDEL', meta, id) == 1 and not status then
  status = 'READY'
end
return status
