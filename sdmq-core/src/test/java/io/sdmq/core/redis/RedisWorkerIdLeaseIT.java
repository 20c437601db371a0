package io.sdmq.core.redis;

import io.sdmq.common.SnowflakeIdGenerator;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisWorkerIdLeaseIT {
    private static final Duration TTL = Duration.ofSeconds(30);

    private final StringRedisTemplate redis = template();
    private final String prefix = TestServices.freshKeyPrefix();

    /** The Redis under test: a single server here, a cluster in {@link RedisClusterWorkerIdLeaseIT}. */
    StringRedisTemplate template() {
        return TestServices.redisTemplate();
    }

    @Test
    void two_owners_never_get_the_same_number() {
        try (RedisWorkerIdLease a = lease("a"); RedisWorkerIdLease b = lease("b")) {
            int first = a.acquire();
            int second = b.acquire();

            assertThat(first).isZero();
            assertThat(second).isEqualTo(1);
            assertThat(redis.opsForValue().get(prefix + ":worker:0")).isEqualTo("a");
            assertThat(redis.getExpire(prefix + ":worker:0", TimeUnit.MILLISECONDS)).isBetween(1L, TTL.toMillis());
        }
    }

    @Test
    void acquiring_again_keeps_the_number_held() {
        try (RedisWorkerIdLease a = lease("a")) {
            assertThat(a.acquire()).isEqualTo(a.acquire()).isZero();
            assertThat(redis.keys(prefix + ":worker:*")).hasSize(1);
        }
    }

    @Test
    void renew_extends_only_an_owned_lease() {
        try (RedisWorkerIdLease a = lease("a")) {
            assertThat(a.renew()).isFalse();
            int n = a.acquire();
            redis.expire(key(n), Duration.ofSeconds(5));

            assertThat(a.renew()).isTrue();
            assertThat(redis.getExpire(key(n), TimeUnit.MILLISECONDS)).isGreaterThan(5_000L);

            redis.opsForValue().set(key(n), "intruder");
            assertThat(a.renew()).isFalse();
            assertThat(redis.getExpire(key(n), TimeUnit.MILLISECONDS)).isEqualTo(-1L);
        }
    }

    @Test
    void close_releases_the_number_for_the_next_owner() {
        RedisWorkerIdLease a = lease("a");
        int n = a.acquire();
        a.close();

        try (RedisWorkerIdLease b = lease("b")) {
            assertThat(b.acquire()).isEqualTo(n);
        }
    }

    @Test
    void close_leaves_a_number_that_another_owner_took_over() {
        RedisWorkerIdLease a = lease("a");
        int n = a.acquire();
        redis.delete(key(n));
        try (RedisWorkerIdLease b = lease("b")) {
            assertThat(b.acquire()).isEqualTo(n);

            a.close();

            assertThat(redis.opsForValue().get(key(n))).isEqualTo("b");
            assertThat(b.renew()).isTrue();
        }
    }

    @Test
    void acquire_fails_when_every_number_is_taken() {
        Map<String, String> taken = new HashMap<>();
        for (int n = 0; n < SnowflakeIdGenerator.MAX_WORKERS; n++) {
            taken.put(key(n), "someone");
        }
        redis.opsForValue().multiSet(taken);
        try (RedisWorkerIdLease a = lease("a")) {
            assertThatThrownBy(a::acquire).isInstanceOf(IllegalStateException.class).hasMessageContaining("1024");
            redis.delete(key(1_023));
            assertThat(a.acquire()).isEqualTo(1_023);
        } finally {
            redis.delete(taken.keySet());
        }
    }

    private RedisWorkerIdLease lease(String owner) {
        return new RedisWorkerIdLease(redis, prefix, owner, TTL);
    }

    private String key(int n) {
        return prefix + ":worker:" + n;
    }
}
