-- Reservations with deadline <= now, up to `limit`: back to the delay zset due at now + backoff (scored with
-- the priority offset added, as at push), or out of
-- the bucket as dead once attempts reach maxAttempts. After delivery n the backoff is retry delay n
-- (1-based), clamped to the last; the message's own delays, else the server default.
-- KEYS: meta hash, delay zset, reserved zset, gone zset.
-- ARGV: now, limit, default retry delays as 'd1,d2,...', how long (ms) gone ids are kept.
-- Returns { next reservation deadline or '', { id1, attempts1, due1, ... }, { dead id1, its meta JSON, ... } }.
local meta, delay, reserved, gone = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = tonumber(ARGV[1])
local defaults = {}
for d in string.gmatch(ARGV[3], '[^,]+') do
  defaults[#defaults + 1] = tonumber(d)
end

local function backoff(message)
  local delays = message.rd
  if type(delays) ~= 'table' or #delays == 0 then
    delays = defaults
  end
  return delays[math.min(math.max(message.a, 1), #delays)]
end

local requeued, dead = {}, {}
local ids = redis.call('ZRANGEBYSCORE', reserved, '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  redis.call('ZREM', reserved, id)
  local json = redis.call('HGET', meta, id)
  if json then
    local message = cjson.decode(json)
    if message.a >= message.ma then
      redis.call('HDEL', meta, id)
      redis.call('ZADD', gone, ARGV[1], id)
      dead[#dead + 1] = id
      dead[#dead + 1] = json
    else
      local due = string.format('%.0f', now + backoff(message))
      message.d = tonumber(due)
      redis.call('HSET', meta, id, cjson.encode(message))
      redis.call('ZADD', delay, string.format('%.0f', message.d + (message.p or 0)), id)
      requeued[#requeued + 1] = id
      requeued[#requeued + 1] = string.format('%.0f', message.a)
      requeued[#requeued + 1] = due
    end
  end
end
if #dead > 0 then
  redis.call('ZREMRANGEBYSCORE', gone, '-inf', string.format('%.0f', now - tonumber(ARGV[4])))
end
local head = redis.call('ZRANGE', reserved, 0, 0, 'WITHSCORES')
local next_deadline = ''
if head[2] then
  next_deadline = string.format('%.0f', tonumber(head[2]))
end
return { next_deadline, requeued, dead }
