-- Adds one instance's deliveries of a topic in a minute to that minute's hash of lateness buckets, and sets the
-- hash's time to live.
-- KEYS: the hash.  ARGV: time to live in ms, then bucket, count, bucket, count, ...
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0
