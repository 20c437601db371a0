-- Adds one message to a bucket unless its meta is there already (a replay changes nothing).
-- KEYS: meta hash, delay zset.  ARGV: id, meta JSON, score.
-- Returns 1 when the id is now the head of the delay zset, else 0.
local meta, delay = KEYS[1], KEYS[2]
local id = ARGV[1]
if redis.call('HEXISTS', meta, id) == 1 then
  return 0
end
redis.call('HSET', meta, id, ARGV[2])
redis.call('ZADD', delay, 'NX', ARGV[3], id)
local head = redis.call('ZRANGE', delay, 0, 0)
if head[1] == id then
  return 1
end
return 0
