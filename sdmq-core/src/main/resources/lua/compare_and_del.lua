-- Releases a lease only while the caller still owns it.
-- KEYS: lease key.  ARGV: owner.
-- Returns 1 when deleted, 0 when the key is gone or held by another owner.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
