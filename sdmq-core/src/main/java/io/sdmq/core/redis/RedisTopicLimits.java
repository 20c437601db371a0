package io.sdmq.core.redis;

import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.TopicLimits;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The topic limits in Redis: per topic, a counter per one-second window of the messages handed out and a zset of
 * the reserved ids by deadline, both under the topic's hash tag ({@code lua/topic_grant.lua},
 * {@code lua/topic_taken.lua}). A reservation that ends without a finish (TTR passed, instance gone) stops counting
 * at its deadline.
 */
public final class RedisTopicLimits implements TopicLimits {
    /** How long a granted slot is held for a pop that never says what it took (its instance died meanwhile). */
    static final long HOLD_MS = 10_000;

    private final StringRedisTemplate redis;
    private final String prefix;

    public RedisTopicLimits(StringRedisTemplate redis, String prefix) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    @Override
    public Grant grant(String topic, int wanted, long now, Integer rateLimit, Integer maxInFlight) {
        long window = now / 1_000;
        String token = UUID.randomUUID().toString();
        Long granted = call(r -> r.execute(LuaScripts.TOPIC_GRANT, List.of(rate(topic, window), inFlight(topic)),
                Long.toString(now), Integer.toString(wanted), text(rateLimit), text(maxInFlight), token,
                Long.toString(HOLD_MS)));
        return new Grant(granted == null ? 0 : granted.intValue(), token, window, rateLimit != null,
                maxInFlight != null);
    }

    @Override
    public void taken(String topic, Grant grant, List<long[]> reserved) {
        List<String> args = new ArrayList<>(4 + reserved.size() * 2);
        args.add(grant.token());
        args.add(Integer.toString(grant.count()));
        args.add(grant.rateLimited() ? Integer.toString(grant.count() - reserved.size()) : "");
        args.add(grant.inFlight() ? "1" : "0");
        for (long[] r : reserved) {
            args.add(Long.toString(r[0]));
            args.add(Long.toString(r[1]));
        }
        call(r -> r.execute(LuaScripts.TOPIC_TAKEN, List.of(rate(topic, grant.window()), inFlight(topic)),
                args.toArray()));
    }

    @Override
    public void released(String topic, Collection<Long> ids) {
        if (!ids.isEmpty()) {
            call(r -> r.opsForZSet().remove(inFlight(topic), ids.stream().map(String::valueOf).toArray()));
        }
    }

    @Override
    public void extended(String topic, long id, long deadline) {
        call(r -> r.execute(LuaScripts.TOPIC_EXTEND, List.of(inFlight(topic)), Long.toString(id),
                Long.toString(deadline)));
    }

    private String rate(String topic, long window) {
        return prefix + ":{t:" + topic + "}:rate:" + window;
    }

    private String inFlight(String topic) {
        return prefix + ":{t:" + topic + "}:inflight";
    }

    private static String text(Integer limit) {
        return limit == null ? "" : limit.toString();
    }

    private <T> T call(Function<StringRedisTemplate, T> call) {
        try {
            return call.apply(redis);
        } catch (DataAccessException e) {
            throw new UnavailableException("Redis is unavailable; retry later", e);
        }
    }
}
