package io.sdmq.core.redis;

import io.sdmq.testing.TestRedisCluster;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.sdmq.core.spi.MessageBuilder.NOW;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

/** Every test of the store again on a Redis Cluster of three masters, where a script may touch one slot only. */
class RedisClusterScheduleStoreIT extends RedisScheduleStoreIT {

    @Override
    StringRedisTemplate template() {
        return TestRedisCluster.template();
    }

    @Test
    void each_bucket_lives_on_one_node_and_the_buckets_spread_over_the_masters() {
        int buckets = 16;
        Stores spread = newStores(buckets);
        for (int b = 0; b < buckets; b++) {
            spread.schedule().push(b, List.of(aMessage().topic("order").due(NOW).ttr(1_000).build(),
                    aMessage().topic("order").due(NOW + 1_000).build()), NOW);
            spread.schedule().moveDue(b, NOW, 10);
            spread.reservations().pop(b, "order", 1, NOW, 0);
            spread.schedule().push(b, List.of(aMessage().topic("order").due(NOW).build()), NOW);
            spread.schedule().moveDue(b, NOW, 10);
            assertThat(spread.reservations().readyTopics(b)).containsExactly("order");
        }

        Map<String, String> nodeOfBucket = new HashMap<>();
        for (String node : TestRedisCluster.nodes()) {
            for (String key : TestRedisCluster.onNode(node, jedis -> jedis.keys(prefix + ":*"))) {
                String bucket = key.substring(0, key.indexOf('}') + 1);
                assertThat(nodeOfBucket.putIfAbsent(bucket, node)).as(key).isIn(null, node);
            }
        }
        assertThat(nodeOfBucket).hasSize(buckets);
        assertThat(Set.copyOf(nodeOfBucket.values())).hasSizeGreaterThan(1);
    }
}
