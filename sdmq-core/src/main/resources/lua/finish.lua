-- Ends reservations and forgets their messages; an id that is not reserved is left alone. Each finished id is kept
-- for a while in the gone zset, so a restore racing with this finish cannot bring the message back.
-- KEYS: meta hash, reserved zset, gone zset.  ARGV: now, how long (ms) gone ids are kept, then the ids.
-- Returns, per id in order, the topic of its message when it was reserved (for the metrics), else 0.
local meta, reserved, gone = KEYS[1], KEYS[2], KEYS[3]
local now = ARGV[1]
local outcomes = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('ZREM', reserved, id) == 1 then
    local json = redis.call('HGET', meta, id)
    redis.call('HDEL', meta, id)
    redis.call('ZADD', gone, now, id)
    outcomes[#outcomes + 1] = json and cjson.decode(json).t or ''
  else
    outcomes[#outcomes + 1] = 0
  end
end
redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', tonumber(now) - tonumber(ARGV[2])))
return outcomes
