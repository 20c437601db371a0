-- Extends a lease only while the caller still owns it.
-- KEYS: lease key.  ARGV: owner, ttl in ms.
-- Returns 1 when extended, 0 when the key is gone or held by another owner.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
