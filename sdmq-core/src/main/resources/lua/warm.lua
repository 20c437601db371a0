-- Brings cold messages into the schedule with their meta read from MySQL: each id still in the cold zset leaves it,
-- and its meta and delay entry are written at the given score (unless its meta is there already: then it is
-- scheduled already). An id no longer cold (deleted, or warmed already by another instance or a reschedule) is
-- left alone.
-- KEYS: meta hash, delay zset, cold zset.  ARGV: id, meta JSON, score; repeated once per message.
-- Returns, per message in order, 1 when it was cold and is now scheduled, else 0.
local meta, delay, cold = KEYS[1], KEYS[2], KEYS[3]
local outcomes = {}
for i = 1, #ARGV, 3 do
  local id = ARGV[i]
  if redis.call('ZREM', cold, id) == 1 then
    if redis.call('HSETNX', meta, id, ARGV[i + 1]) == 1 then
      redis.call('ZADD', delay, 'NX', ARGV[i + 2], id)
    end
    outcomes[#outcomes + 1] = 1
  else
    outcomes[#outcomes + 1] = 0
  end
end
return outcomes
