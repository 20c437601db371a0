-- What a grant of topic_grant.lua took: its placeholders give way to the ids reserved, each at its deadline, and
-- the rate slots it did not use are given back to its window.
-- KEYS: the grant's window rate counter, the topic's in-flight zset.
-- ARGV: token, granted, rate slots unused ('' when no rate limit), '1' when there is an in-flight limit, then
-- id, deadline, id, deadline, ...
local rate, inflight = KEYS[1], KEYS[2]
if ARGV[3] ~= '' and tonumber(ARGV[3]) > 0 and redis.call('EXISTS', rate) == 1 then
  redis.call('DECRBY', rate, ARGV[3])
end
if ARGV[4] == '1' then
  for i = 1, tonumber(ARGV[2]) do
    redis.call('ZREM', inflight, ARGV[1] .. ':' .. i)
  end
  for i = 5, #ARGV, 2 do
    redis.call('ZADD', inflight, ARGV[i + 1], ARGV[i])
  end
end
return 0
