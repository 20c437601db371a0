package io.sdmq.server;

import io.sdmq.testing.TestRedisCluster;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two servers on a Redis Cluster of three masters and one MySQL: the buckets spread over the nodes, each script on one
 * of them, and the instances hear each other's ready topics through the cluster's pub/sub.
 */
class RedisClusterIT {
    private static TestDatabase db;
    private static DataSource dataSource;
    private static RunningServer server;
    private static RunningServer other;
    private static String keyPrefix;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        dataSource = db.dataSource();
        keyPrefix = TestServices.freshKeyPrefix();
        // a cold window of 2 s, so messages pushed more than 2 s ahead wait in MySQL and are warmed 1 s before due
        Map<String, Object> onCluster = Map.of("spring.data.redis.cluster.nodes",
                String.join(",", TestRedisCluster.nodes()), "sdmq.scheduler.cold-after", "2s");
        server = RunningServer.start(db, TestServices.redisUrl(), keyPrefix, onCluster);
        other = RunningServer.start(db, TestServices.redisUrl(), keyPrefix, onCluster);
    }

    @AfterAll
    static void stopServers() {
        other.close();
        server.close();
    }

    @Test
    void messages_pushed_to_both_instances_are_delivered_once_by_either_none_early() throws Exception {
        String topic = "cluster-" + ThreadLocalRandom.current().nextInt(1_000_000);
        Set<String> pushed = new HashSet<>();
        try (Deliveries deliveries = new Deliveries()) {
            for (int c = 0; c < 4; c++) {
                deliveries.consume(c % 2 == 0 ? server : other, topic);
            }
            for (int i = 0; i < 100; i++) {
                RunningServer to = i % 2 == 0 ? server : other;
                pushed.add(to.post("/push", message(topic, ThreadLocalRandom.current().nextLong(0, 1_500))).data()
                        .asString());
            }
            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i < 100; i++) {
                batch.append(i == 0 ? "" : ",").append(message(topic, 2_500 + i * 10L));
            }
            other.post("/push/batch", batch.append(']').toString()).data()
                    .forEach(id -> pushed.add(id.asString()));

            deliveries.awaitDelivered(pushed, Duration.ofSeconds(30), dataSource);
            deliveries.stopAndCheckFinishes();

            assertThat(deliveries.ids()).isEqualTo(pushed);
            assertThat(deliveries.duplicates()).isZero();
            assertThat(deliveries.early()).isEmpty();
        }
        assertThat(nodesHolding(keyPrefix + ":{b*")).hasSizeGreaterThan(1);
    }

    @Test
    void after_the_cluster_loses_the_server_keys_a_restore_brings_every_pending_message_back() {
        String topic = "cluster-restore-" + ThreadLocalRandom.current().nextInt(1_000_000);
        Set<String> pending = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            // due within the cold window (kept whole) and beyond it (kept as their id alone)
            pending.add(push(topic, i % 2 == 0 ? 1_500_000 : 600_000_000));
        }
        Map<String, Integer> before = nodesHolding(keyPrefix + ":{b*");

        // one key at a time: the keys of different buckets sit in different slots
        TestRedisCluster.nodes().forEach(node -> TestRedisCluster.onNode(node,
                jedis -> jedis.keys(keyPrefix + ":*").stream().mapToLong(jedis::del).sum()));
        assertThat(nodesHolding(keyPrefix + ":{b*")).isEmpty();

        JsonNode report = server.post("/reStore?expire=true", "").data();
        assertThat(report.get("restored").asInt()).isEqualTo(pending.size());
        assertThat(report.get("gone").asInt()).isZero();
        assertThat(nodesHolding(keyPrefix + ":{b*")).isEqualTo(before);
        for (String id : pending) {
            assertThat(server.post("/reStoreJob?jobId=" + id, "").data().get("outcome").asString())
                    .isEqualTo("ALREADY_PRESENT");
        }
    }

    private static String push(String topic, long delay) {
        return server.post("/push", message(topic, delay)).data().asString();
    }

    private static String message(String topic, long delay) {
        return "{\"topic\":\"" + topic + "\",\"body\":\"b\",\"delay\":" + delay + "}";
    }

    /** The number of keys matching {@code pattern} on each node that holds any. */
    private static Map<String, Integer> nodesHolding(String pattern) {
        Map<String, Integer> counts = new HashMap<>();
        for (String node : TestRedisCluster.nodes()) {
            int keys = TestRedisCluster.onNode(node, jedis -> jedis.keys(pattern).size());
            if (keys > 0) {
                counts.put(node, keys);
            }
        }
        return counts;
    }
}
