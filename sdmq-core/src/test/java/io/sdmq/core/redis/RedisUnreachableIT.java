package io.sdmq.core.redis;

import io.sdmq.common.UnavailableException;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import static io.sdmq.core.spi.MessageBuilder.NOW;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Redis that cannot be reached fails every call of the adapters as sdmq's UnavailableException, nothing of Redis. */
class RedisUnreachableIT {
    private static final JedisConnectionFactory factory =
            TestServices.jedisFactory(new RedisStandaloneConfiguration("127.0.0.1", closedPort()));
    private final StringRedisTemplate redis = new StringRedisTemplate(factory);
    private final RedisSchedule schedule = new RedisSchedule(redis, "unreachable", 1, Duration.ofHours(1));
    private final RedisReservations reservations = new RedisReservations(redis, "unreachable", 1, List.of(0L));

    @AfterAll
    static void close() {
        factory.destroy();
    }

    @Test
    void every_call_of_the_schedule_answers_unavailable() {
        for (Executable call : List.<Executable>of(
                () -> schedule.push(0, List.of(aMessage().due(NOW).build()), NOW),
                () -> schedule.moveDue(0, NOW, 10),
                () -> schedule.coldUntil(0, NOW, 10),
                () -> schedule.delete(0, 1L, NOW),
                () -> schedule.holds(0, 1L),
                () -> schedule.isEmpty(0))) {
            assertUnavailable(call);
        }
    }

    @Test
    void every_call_of_the_reservations_answers_unavailable() {
        for (Executable call : List.<Executable>of(
                () -> reservations.pop(0, "order", 1, NOW, 0),
                () -> reservations.finish(0, List.of(1L), NOW),
                () -> reservations.nack(0, 1L, NOW, null, false),
                () -> reservations.touch(0, 1L, NOW),
                () -> reservations.requeueExpired(0, NOW, 10),
                () -> reservations.readyCount(0, "order"),
                () -> reservations.readyTopics(0))) {
            assertUnavailable(call);
        }
    }

    private static void assertUnavailable(Executable call) {
        assertThatThrownBy(call::execute).isInstanceOf(UnavailableException.class)
                .hasMessage("Redis is unavailable; retry later");
    }

    /** A loopback port nothing listens on. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
