-- The retry rule, put by LuaScripts in front of nack.lua and requeue_expired.lua, its only users.
-- After delivery n a message waits its retry delay n (1-based, the last one repeating): its own delays, else the
-- server's default. Once its attempts reach maxAttempts it is dead instead: out of the bucket, its id kept in the
-- gone zset so that a racing restore cannot bring it back.

-- The server's default delays, sent as 'd1,d2,...'.
local function parse_delays(csv)
  local delays = {}
  for d in string.gmatch(csv, '[^,]+') do
    delays[#delays + 1] = tonumber(d)
  end
  return delays
end

-- Gives back a message that is out of its reserved zset: due again at now + wait (wait nil: its backoff), or dead,
-- at once when bury is true (the consumer gave up on it).
-- Returns 'DEAD' or 'DELAY', its meta JSON as stored (the new due time in it) and the decoded message.
local function retry_or_bury(keys, id, json, now, wait, defaults, bury)
  local message = cjson.decode(json)
  if bury or message.a >= message.ma then
    redis.call('HDEL', keys.meta, id)
    redis.call('ZADD', keys.gone, string.format('%.0f', now), id)
    return 'DEAD', json, message
  end
  if not wait then
    local delays = message.rd
    if type(delays) ~= 'table' or #delays == 0 then
      delays = defaults
    end
    wait = delays[math.min(math.max(message.a, 1), #delays)]
  end
  message.d = now + wait
  json = cjson.encode(message)
  redis.call('HSET', keys.meta, id, json)
  redis.call('ZADD', keys.delay, string.format('%.0f', message.d + (message.p or 0)), id)
  return 'DELAY', json, message
end

-- Drops the gone ids older than keep_ms.
local function forget_gone(gone, now, keep_ms)
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', now - keep_ms))
end
