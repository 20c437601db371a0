-- A consumer extends its reservation: the deadline becomes now + the message's ttr.
-- KEYS: meta hash, reserved zset.  ARGV: id, now.
-- Returns the new deadline, or nil when the message is not reserved.
local meta, reserved = KEYS[1], KEYS[2]
local id = ARGV[1]
if not redis.call('ZSCORE', reserved, id) then
  return nil
end
local json = redis.call('HGET', meta, id)
if not json then
  return nil
end
local deadline = string.format('%.0f', tonumber(ARGV[2]) + cjson.decode(json).ttr)
redis.call('ZADD', reserved, deadline, id)
return deadline
