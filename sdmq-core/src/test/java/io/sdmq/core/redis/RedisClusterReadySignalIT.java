package io.sdmq.core.redis;

import io.sdmq.testing.TestRedisCluster;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;
import java.util.List;
import java.util.Queue;

import static org.awaitility.Awaitility.await;

/** The ready signal's tests again on a Redis Cluster, whose nodes pass every publish on to each other. */
class RedisClusterReadySignalIT extends RedisReadySignalIT {

    @Override
    RedisConnectionFactory factory() {
        return TestRedisCluster.template().getRequiredConnectionFactory();
    }

    /**
     * Here PUBLISH counts only the subscribers of the node it ran on, so a signal cannot tell that nobody hears it:
     * it keeps publishing, and a newcomer hears the next publish at once, not after a probe period.
     */
    @Test
    @Override
    void a_signal_no_other_instance_hears_stops_publishing_until_its_probe_finds_a_newcomer() {
        RedisReadySignal publisher = signal(Duration.ofSeconds(60));
        subscribe(publisher);
        publisher.publish(0, List.of("first"));
        Queue<String> newcomer = rawMessages(prefix + ":ready");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            publisher.publish(0, List.of("next"));
            return newcomer.stream().anyMatch(m -> m.endsWith("next"));
        });
    }
}
