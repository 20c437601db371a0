-- Takes up to `count` ids from a topic's ready list and reserves each until now + its ttr, or until ARGV[3] when that
-- is later (a sink's send may outlast the ttr), counting the delivery in its meta. Ids whose meta is gone (deleted)
-- are dropped.
-- KEYS: meta hash, reserved zset, ready list.  ARGV: now, count, reserved-until (0: none).
-- Returns the id and meta JSON of each reserved message, attempts included, in list order: id, json, id, json, ...
local meta, reserved, ready = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local reservedUntil = tonumber(ARGV[3])
local popped = {}
while #popped < 2 * count do
  local id = redis.call('LPOP', ready)
  if not id then
    break
  end
  local json = redis.call('HGET', meta, id)
  if json then
    local message = cjson.decode(json)
    message.a = message.a + 1
    json = cjson.encode(message)
    redis.call('HSET', meta, id, json)
    redis.call('ZADD', reserved, string.format('%.0f', math.max(now + message.ttr, reservedUntil)), id)
    popped[#popped + 1] = id
    popped[#popped + 1] = json
  end
end
return popped
