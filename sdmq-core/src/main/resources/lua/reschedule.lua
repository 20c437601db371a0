-- Moves a pending message to a new due time, and with a body given replaces its body too (debounce); its id,
-- attempts and priority stay. Only a message still in the delay zset can move.
-- KEYS: meta hash, delay zset, reserved zset.  ARGV: id, new due time, '1' with a new body or '0', new body.
-- Returns 'DELAY' when moved, 'READY' or 'RESERVED' when it is past that, nil when the bucket does not hold it.
local meta, delay, reserved = KEYS[1], KEYS[2], KEYS[3]
local id = ARGV[1]
local json = redis.call('HGET', meta, id)
if not json then
  return nil
end
if not redis.call('ZSCORE', delay, id) then
  if redis.call('ZSCORE', reserved, id) then
    return 'RESERVED'
  end
  return 'READY'
end
local message = cjson.decode(json)
message.d = tonumber(ARGV[2])
if ARGV[3] == '1' then
  message.b = ARGV[4]
end
redis.call('HSET', meta, id, cjson.encode(message))
redis.call('ZADD', delay, string.format('%.0f', message.d + (message.p or 0)), id)
return 'DELAY'
