-- Puts messages from MySQL back into their bucket, each unless the bucket holds it, or it finished, was deleted or
-- died a moment ago (its id is in the gone zset).
-- KEYS: meta hash, delay zset, gone zset.  ARGV: id, meta JSON, score; repeated once per message.
-- Returns one outcome per message, in order: 1 when written, 0 when the bucket holds it already, 2 when it is gone.
local meta, delay, gone = KEYS[1], KEYS[2], KEYS[3]
local outcomes = {}
for i = 1, #ARGV, 3 do
  local id = ARGV[i]
  if redis.call('HEXISTS', meta, id) == 1 then
    outcomes[#outcomes + 1] = 0
  elseif redis.call('ZSCORE', gone, id) then
    outcomes[#outcomes + 1] = 2
  else
    redis.call('HSET', meta, id, ARGV[i + 1])
    redis.call('ZADD', delay, ARGV[i + 2], id)
    outcomes[#outcomes + 1] = 1
  end
end
return outcomes
