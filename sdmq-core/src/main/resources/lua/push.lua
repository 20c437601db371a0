-- Adds messages to a bucket, each unless its meta is there already (a replay changes nothing).
-- KEYS: meta hash, delay zset.  ARGV: id, meta JSON, score; repeated once per message.
-- Returns 1 when one of the ids written is now the head of the delay zset, else 0.
local meta, delay = KEYS[1], KEYS[2]
local written = {}
for i = 1, #ARGV, 3 do
  local id = ARGV[i]
  if redis.call('HSETNX', meta, id, ARGV[i + 1]) == 1 then
    redis.call('ZADD', delay, 'NX', ARGV[i + 2], id)
    written[id] = true
  end
end
local head = redis.call('ZRANGE', delay, 0, 0)
if head[1] and written[head[1]] then
  return 1
end
return 0
