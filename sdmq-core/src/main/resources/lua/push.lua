-- Adds messages to a bucket, each unless the bucket holds it already (a replay changes nothing). A message sent
-- without meta is due beyond the hot window: only its id goes in, to the cold zset at its score, and its body stays
-- in MySQL until warm.lua brings it in.
-- KEYS: meta hash, delay zset, cold zset.  ARGV: id, meta JSON or '' (cold), score; repeated once per message.
-- Returns 1 when one of the ids written is now the head of the delay zset, else 0.
local meta, delay, cold = KEYS[1], KEYS[2], KEYS[3]
local written = {}
for i = 1, #ARGV, 3 do
  local id = ARGV[i]
  if ARGV[i + 1] == '' then
    if redis.call('HEXISTS', meta, id) == 0 then
      redis.call('ZADD', cold, 'NX', ARGV[i + 2], id)
    end
  elseif redis.call('HSETNX', meta, id, ARGV[i + 1]) == 1 then
    redis.call('ZADD', delay, 'NX', ARGV[i + 2], id)
    written[id] = true
  end
end
local head = redis.call('ZRANGE', delay, 0, 0)
if head[1] and written[head[1]] then
  return 1
end
return 0
