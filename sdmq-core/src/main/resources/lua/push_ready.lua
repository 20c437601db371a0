-- Adds due messages straight to their topics' ready lists, each unless the bucket's meta holds it already (a replay
-- changes nothing): a bulk requeue's messages, due now, skip the delay zset and the scheduler's move.
-- KEYS: meta hash.  ARGV: ready key prefix (the topic is appended), then id, meta JSON, topic once per message.
-- Returns { id1, topic1, id2, topic2, ... } of the messages added, in order.
local meta = KEYS[1]
local ready_prefix = ARGV[1]
local added = {}
for i = 2, #ARGV, 3 do
  local id, topic = ARGV[i], ARGV[i + 2]
  if redis.call('HSETNX', meta, id, ARGV[i + 1]) == 1 then
    redis.call('RPUSH', ready_prefix .. topic, id)
    added[#added + 1] = id
    added[#added + 1] = topic
  end
end
return added
