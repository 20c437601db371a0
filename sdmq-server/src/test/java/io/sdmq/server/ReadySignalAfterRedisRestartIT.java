package io.sdmq.server;

import io.sdmq.core.redis.RedisReadySignal;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ready signal's subscription blocks a thread of its own with Jedis; when Redis goes away and comes back, the
 * listener container subscribes again, so instances hear each other's ready topics without waiting for their ready
 * sweeps.
 */
class ReadySignalAfterRedisRestartIT {

    @Test
    void a_signal_hears_other_instances_again_after_redis_restarts() {
        String prefix = TestServices.freshKeyPrefix();
        Queue<String> heard = new ConcurrentLinkedQueue<>();
        try (RedisProcess redis = RedisProcess.start();
             Factory factory = new Factory(redis.port());
             RedisReadySignal publisher = new RedisReadySignal(factory.jedis(), prefix);
             RedisReadySignal listener = new RedisReadySignal(factory.jedis(), prefix)) {
            listener.subscribe((bucket, topic) -> heard.add(bucket + "/" + topic));
            await().atMost(Duration.ofSeconds(10)).until(() -> publishUntilHeard(publisher, heard, "before"));

            redis.stop();
            redis.startAgain();

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> publishUntilHeard(publisher, heard, "after"));
            assertThat(heard).contains("3/before", "3/after");
        }
    }

    /** Publishes the topic (a publish may fail on a connection from before the restart) and says if it was heard. */
    private static boolean publishUntilHeard(RedisReadySignal publisher, Queue<String> heard, String topic) {
        try {
            publisher.publish(3, List.of(topic));
        } catch (RuntimeException e) {
            // Redis is still coming back, or this pooled connection is from before the restart
        }
        return heard.contains("3/" + topic);
    }

    /** A connection factory on the test's own Redis, built as the server builds its own; destroyed on close. */
    private record Factory(JedisConnectionFactory jedis) implements AutoCloseable {
        Factory(int port) {
            this(TestServices.jedisFactory(new RedisStandaloneConfiguration("127.0.0.1", port)));
        }

        @Override
        public void close() {
            jedis.destroy();
        }
    }
}
