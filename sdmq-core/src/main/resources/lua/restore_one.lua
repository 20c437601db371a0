-- Puts a message from MySQL back into its bucket unless the bucket holds it, or it finished, was deleted or died
-- a moment ago (its id is in the gone zset).
-- KEYS: meta hash, delay zset, gone zset.  ARGV: id, meta JSON, score.
-- Returns 1 when written, 0 when the bucket holds it already, 2 when it is gone.
local meta, delay, gone = KEYS[1], KEYS[2], KEYS[3]
local id = ARGV[1]
if redis.call('HEXISTS', meta, id) == 1 then
  return 0
end
if redis.call('ZSCORE', gone, id) then
  return 2
end
redis.call('HSET', meta, id, ARGV[2])
redis.call('ZADD', delay, ARGV[3], id)
return 1
