-- A touched reservation counts until its new deadline, if the topic's in-flight zset holds it.
-- KEYS: the topic's in-flight zset.  ARGV: id, deadline.
return redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
