package io.sdmq.core.redis;

import io.sdmq.common.SnowflakeIdGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A snowflake worker number leased in Redis as {@code <prefix>:worker:<n>} (SET NX PX), so two live
 * instances never mint ids with the same worker number. The holder renews it well within the ttl.
 */
public final class RedisWorkerIdLease implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisWorkerIdLease.class);

    private final StringRedisTemplate redis;
    private final String prefix;
    private final String owner;
    private final Duration ttl;
    private int worker = -1;

    public RedisWorkerIdLease(StringRedisTemplate redis, String prefix, String owner, Duration ttl) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.owner = Objects.requireNonNull(owner, "owner");
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttl);
        }
        this.ttl = ttl;
    }

    /**
     * Takes the lowest free worker number; when this lease still holds one, keeps and returns that.
     *
     * @throws IllegalStateException when all {@value SnowflakeIdGenerator#MAX_WORKERS} numbers are taken
     */
    public synchronized int acquire() {
        if (worker >= 0 && renew()) {
            return worker;
        }
        for (int n = 0; n < SnowflakeIdGenerator.MAX_WORKERS; n++) {
            if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key(n), owner, ttl))) {
                worker = n;
                log.info("leased worker id {} for {}", n, owner);
                return n;
            }
        }
        throw new IllegalStateException("all " + SnowflakeIdGenerator.MAX_WORKERS + " worker ids under " + prefix
                + " are leased");
    }

    /** Extends the lease by its ttl; false when it is not held (never acquired, expired, or taken by another). */
    public synchronized boolean renew() {
        int held = worker;
        if (held < 0) {
            return false;
        }
        Long renewed = redis.execute(LuaScripts.COMPARE_AND_PEXPIRE, List.of(key(held)), owner,
                Long.toString(ttl.toMillis()));
        if (!Long.valueOf(1).equals(renewed)) {
            log.warn("worker id {} of {} was lost", held, owner);
            worker = -1;
            return false;
        }
        return true;
    }

    /** Releases the worker number if this lease still holds it. */
    @Override
    public synchronized void close() {
        int held = worker;
        if (held < 0) {
            return;
        }
        worker = -1;
        redis.execute(LuaScripts.COMPARE_AND_DEL, List.of(key(held)), owner);
    }

    private String key(int n) {
        return prefix + ":worker:" + n;
    }
}
