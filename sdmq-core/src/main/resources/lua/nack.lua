-- A consumer gives a reserved message back: due again at now + delay, or with no delay given after its retry
-- policy's backoff, or out of the bucket as dead once its attempts are exhausted or when the consumer says so
-- (retry.lua, put in front of this).
-- KEYS: meta hash, delay zset, reserved zset, gone zset.
-- ARGV: id, now, delay in ms or '' for the retry policy, default retry delays as 'd1,d2,...', gone ms,
-- '1' to make it dead whatever its attempts ('0' otherwise).
-- Returns {} when it was not reserved, { 'DEAD', meta JSON } or { 'DELAY', meta JSON } (with the new due time).
local keys = { meta = KEYS[1], delay = KEYS[2], reserved = KEYS[3], gone = KEYS[4] }
local id, now = ARGV[1], tonumber(ARGV[2])
if redis.call('ZREM', keys.reserved, id) == 0 then
  return {}
end
local json = redis.call('HGET', keys.meta, id)
if not json then
  return {}
end
local outcome, stored = retry_or_bury(keys, id, json, now, tonumber(ARGV[3]), parse_delays(ARGV[4]),
  ARGV[6] == '1')
if outcome == 'DEAD' then
  forget_gone(keys.gone, now, tonumber(ARGV[5]))
end
return { outcome, stored }
