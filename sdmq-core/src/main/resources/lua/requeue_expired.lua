-- Reservations with deadline <= now, up to `limit`: back to the delay zset after their backoff, or out of the bucket
-- as dead once their attempts are exhausted (retry.lua, put in front of this).
-- KEYS: meta hash, delay zset, reserved zset, gone zset.
-- ARGV: now, limit, default retry delays as 'd1,d2,...', how long (ms) gone ids are kept.
-- Returns { next reservation deadline or '', { id1, topic1, attempts1, due1, ... }, { dead id1, its meta JSON, ... } }.
local keys = { meta = KEYS[1], delay = KEYS[2], reserved = KEYS[3], gone = KEYS[4] }
local now = tonumber(ARGV[1])
local defaults = parse_delays(ARGV[3])
local requeued, dead = {}, {}
local ids = redis.call('ZRANGEBYSCORE', keys.reserved, '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  redis.call('ZREM', keys.reserved, id)
  local json = redis.call('HGET', keys.meta, id)
  if json then
    local outcome, stored, message = retry_or_bury(keys, id, json, now, nil, defaults)
    if outcome == 'DEAD' then
      dead[#dead + 1] = id
      dead[#dead + 1] = stored
    else
      requeued[#requeued + 1] = id
      requeued[#requeued + 1] = message.t
      requeued[#requeued + 1] = string.format('%.0f', message.a)
      requeued[#requeued + 1] = string.format('%.0f', message.d)
    end
  end
end
if #dead > 0 then
  forget_gone(keys.gone, now, tonumber(ARGV[4]))
end
local head = redis.call('ZRANGE', keys.reserved, 0, 0, 'WITHSCORES')
local next_deadline = ''
if head[2] then
  next_deadline = string.format('%.0f', tonumber(head[2]))
end
return { next_deadline, requeued, dead }
