-- Moves pending messages to a new due time, and with a body given replaces their body too (debounce); their ids,
-- attempts and priorities stay. Only a message still in the delay zset can move.
-- KEYS: meta hash, delay zset, reserved zset.  ARGV: new due time, '1' with a new body or '0', new body, then one or
-- more ids.
-- Returns, per id in order, 'DELAY' when moved, 'READY' or 'RESERVED' when it is past that, '' when the bucket does
-- not hold it.
local meta, delay, reserved = KEYS[1], KEYS[2], KEYS[3]
local statuses = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local json = redis.call('HGET', meta, id)
  local status = ''
  if json and not redis.call('ZSCORE', delay, id) then
    status = redis.call('ZSCORE', reserved, id) and 'RESERVED' or 'READY'
  elseif json then
    local message = cjson.decode(json)
    message.d = tonumber(ARGV[1])
    if ARGV[2] == '1' then
      message.b = ARGV[3]
    end
    redis.call('HSET', meta, id, cjson.encode(message))
    redis.call('ZADD', delay, string.format('%.0f', message.d + (message.p or 0)), id)
    status = 'DELAY'
  end
  statuses[#statuses + 1] = status
end
return statuses
