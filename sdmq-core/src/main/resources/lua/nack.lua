-- A consumer gives a reserved message back: it goes back to the delay zset due at now + delay (or, with no delay
-- given, now + the backoff its retry policy names for this attempt), or out of the bucket as dead once its
-- attempts are exhausted.
-- KEYS: meta hash, delay zset, reserved zset, gone zset.
-- ARGV: id, now, delay in ms or '' for the retry policy, default retry delays as 'd1,d2,...', gone ms.
-- Returns {} when it was not reserved, { 'DEAD', meta JSON } or { 'DELAY', meta JSON } (with the new due time).
local meta, delay, reserved, gone = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, now = ARGV[1], tonumber(ARGV[2])
if redis.call('ZREM', reserved, id) == 0 then
  return {}
end
local json = redis.call('HGET', meta, id)
if not json then
  return {}
end
local message = cjson.decode(json)
if message.a >= message.ma then
  redis.call('HDEL', meta, id)
  redis.call('ZADD', gone, ARGV[2], id)
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', now - tonumber(ARGV[5])))
  return { 'DEAD', json }
end
local wait = tonumber(ARGV[3])
if not wait then
  local delays = message.rd
  if type(delays) ~= 'table' or #delays == 0 then
    delays = {}
    for d in string.gmatch(ARGV[4], '[^,]+') do
      delays[#delays + 1] = tonumber(d)
    end
  end
  wait = delays[math.min(math.max(message.a, 1), #delays)]
end
message.d = now + wait
json = cjson.encode(message)
redis.call('HSET', meta, id, json)
redis.call('ZADD', delay, string.format('%.0f', message.d + (message.p or 0)), id)
return { 'DELAY', json }
