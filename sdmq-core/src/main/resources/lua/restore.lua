-- Puts messages from MySQL back into their bucket, each unless the bucket holds it (its meta, or its id in the cold
-- zset), or it finished, was deleted or died a moment ago (its id is in the gone zset). A message sent without meta
-- is due beyond the hot window: only its id goes back, to the cold zset at its score.
-- KEYS: meta hash, delay zset, gone zset, cold zset.  ARGV: id, meta JSON or '' (cold), score; repeated per message.
-- Returns one outcome per message, in order: 1 when written, 0 when the bucket holds it already, 2 when it is gone.
-- The checks, the metas and the scores each go to Redis as one command per chunk, not one per message.
local meta, delay, gone, cold = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local CHUNK = 1000
local outcomes, metas, scores, colds = {}, {}, {}, {}

local function write(key, command, args)
  for from = 1, #args, 2 * CHUNK do
    redis.call(command, key, unpack(args, from, math.min(from + 2 * CHUNK - 1, #args)))
  end
end

for from = 1, #ARGV, 3 * CHUNK do
  local to = math.min(from + 3 * CHUNK - 1, #ARGV)
  local ids = {}
  for i = from, to, 3 do
    ids[#ids + 1] = ARGV[i]
  end
  local gone_scores = redis.call('ZMSCORE', gone, unpack(ids))
  local cold_scores = redis.call('ZMSCORE', cold, unpack(ids))
  for j, id in ipairs(ids) do
    local i = from + 3 * (j - 1)
    if cold_scores[j] or redis.call('HEXISTS', meta, id) == 1 then
      outcomes[#outcomes + 1] = 0
    elseif gone_scores[j] then
      outcomes[#outcomes + 1] = 2
    elseif ARGV[i + 1] == '' then
      colds[#colds + 1] = ARGV[i + 2]
      colds[#colds + 1] = id
      outcomes[#outcomes + 1] = 1
    else
      metas[#metas + 1] = id
      metas[#metas + 1] = ARGV[i + 1]
      scores[#scores + 1] = ARGV[i + 2]
      scores[#scores + 1] = id
      outcomes[#outcomes + 1] = 1
    end
  end
end
write(meta, 'HSET', metas)
write(delay, 'ZADD', scores)
write(cold, 'ZADD', colds)
return outcomes
