-- Moves up to `limit` due ids from the delay zset to their topics' ready lists, in score order.
-- Ids whose meta is gone are dropped from the zset and not reported.
-- KEYS: meta hash, delay zset.  ARGV: now, limit, ready key prefix (the topic is appended).
-- Returns { next head score or '', { id1, topic1, id2, topic2, ... } }.
local meta, delay = KEYS[1], KEYS[2]
local ready_prefix = ARGV[3]
local ids = redis.call('ZRANGEBYSCORE', delay, '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local moved = {}
for _, id in ipairs(ids) do
  local json = redis.call('HGET', meta, id)
  if json then
    local topic = cjson.decode(json).t
    redis.call('RPUSH', ready_prefix .. topic, id)
    moved[#moved + 1] = id
    moved[#moved + 1] = topic
  end
  redis.call('ZREM', delay, id)
end
local head = redis.call('ZRANGE', delay, 0, 0, 'WITHSCORES')
local next_score = ''
if head[2] then
  next_score = string.format('%.0f', tonumber(head[2]))
end
return { next_score, moved }
