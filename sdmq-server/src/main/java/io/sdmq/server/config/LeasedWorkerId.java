package io.sdmq.server.config;

import io.sdmq.common.Daemons;
import io.sdmq.common.IdGenerator;
import io.sdmq.common.SnowflakeIdGenerator;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.redis.RedisWorkerIdLease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Snowflake ids under a worker number leased in Redis and renewed every {@link #RENEW}. When the lease cannot be
 * renewed for a whole {@link #TTL}, another instance may take the number, so no id is minted until it is back.
 */
final class LeasedWorkerId implements IdGenerator, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeasedWorkerId.class);
    static final Duration TTL = Duration.ofSeconds(30);
    static final Duration RENEW = Duration.ofSeconds(5);

    private final RedisWorkerIdLease lease;
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
            Daemons.factory("sdmq-worker-id"));
    private volatile SnowflakeIdGenerator ids;
    private volatile long validUntil;

    LeasedWorkerId(StringRedisTemplate redis, String prefix, String instance) {
        this.lease = new RedisWorkerIdLease(redis, prefix, instance + "/" + UUID.randomUUID(), TTL);
        long start = System.currentTimeMillis();
        this.ids = new SnowflakeIdGenerator(lease.acquire());
        this.validUntil = start + TTL.toMillis() - RENEW.toMillis();
        renewer.scheduleWithFixedDelay(this::renew, RENEW.toMillis(), RENEW.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public long nextId() {
        if (System.currentTimeMillis() > validUntil) {
            throw new UnavailableException("the snowflake worker id lease could not be renewed in Redis; "
                    + "no id is minted until it is", null);
        }
        return ids.nextId();
    }

    private void renew() {
        long start = System.currentTimeMillis();
        try {
            if (!lease.renew()) {
                ids = new SnowflakeIdGenerator(lease.acquire());
                log.warn("the worker id lease was lost and has been taken again");
            }
            validUntil = start + TTL.toMillis() - RENEW.toMillis();
        } catch (RuntimeException e) {
            log.warn("could not renew the worker id lease ({}); will retry in {} s", e.toString(), RENEW.toSeconds());
        }
    }

    @Override
    public void close() {
        renewer.shutdownNow();
        try {
            lease.close();
        } catch (RuntimeException e) {
            log.warn("could not release the worker id lease ({}); it expires by itself", e.toString());
        }
    }
}
