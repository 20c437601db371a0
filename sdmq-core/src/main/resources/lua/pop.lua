-- Takes up to `count` ids from a topic's ready lists, bucket after bucket in KEYS order, each bucket up to what the
-- buckets before it left of `count`, and reserves each until now + its ttr, or until ARGV[3] when that is later (a
-- sink's send may outlast the ttr), counting the delivery in its meta. Ids whose meta is gone (deleted) are dropped.
-- A bucket whose keys fail (a key of the wrong type) answers its error, and the next bucket is taken as if it had
-- given nothing.
-- KEYS: per bucket, its meta hash, reserved zset and ready list.  ARGV: now, count, reserved-until (0: none).
-- Returns per bucket reached, in KEYS order (none after `count` is reached): { '', id, json, id, json, ... } with
-- the reserved messages' meta JSON, attempts included, in list order; or { error } when the bucket failed.
local now = tonumber(ARGV[1])
local left = tonumber(ARGV[2])
local reservedUntil = tonumber(ARGV[3])

local function pop(meta, reserved, ready, wanted)
  local popped = { '' }
  while #popped < 1 + 2 * wanted do
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
end

local replies = {}
for i = 1, #KEYS, 3 do
  if left == 0 then
    break
  end
  local ok, popped = pcall(pop, KEYS[i], KEYS[i + 1], KEYS[i + 2], left)
  if ok then
    left = left - (#popped - 1) / 2
  else
    popped = { type(popped) == 'table' and popped.err or tostring(popped) }
  end
  replies[#replies + 1] = popped
end
return replies
