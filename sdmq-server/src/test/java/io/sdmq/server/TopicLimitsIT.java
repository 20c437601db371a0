package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A topic's rateLimit and maxInFlight hold across two servers sharing Redis and MySQL, with consumers on both:
 * counted per one-second window of the reservations the status log records, and by the reservations the consumers
 * hold at once. Every message is still delivered, none twice.
 */
class TopicLimitsIT {
    private static TestDatabase db;
    private static RunningServer a;
    private static RunningServer b;

    @BeforeAll
    static void startServers() {
        db = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        a = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of());
        b = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of());
    }

    @AfterAll
    static void stopServers() {
        a.close();
        b.close();
    }

    @Test
    void a_rate_limit_holds_in_every_second_across_two_instances_and_every_message_is_delivered() throws Exception {
        String topic = topic("rate");
        Set<String> pushed = settingsSeenByBoth(topic, "{\"rateLimit\":20,\"priority\":5}", 5);
        for (int i = pushed.size(); i < 100; i++) {
            pushed.add(push(i % 2 == 0 ? a : b, topic));
        }
        Consumers consumers = new Consumers(topic, 0);
        consumers.runUntil(pushed);

        await().atMost(Duration.ofSeconds(10)).until(() -> reservationsPerSecond(topic).values().stream()
                .mapToLong(Long::longValue).sum() >= pushed.size());
        Map<String, Long> perSecond = reservationsPerSecond(topic);
        assertThat(perSecond.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(20));
        assertThat(perSecond.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(pushed.size());
        assertThat(consumers.delivered).containsOnlyKeys(pushed);
        assertThat(consumers.delivered.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    }

    @Test
    void max_in_flight_holds_across_two_instances_and_every_message_is_delivered() throws Exception {
        String topic = topic("inflight");
        Set<String> pushed = settingsSeenByBoth(topic, "{\"maxInFlight\":4,\"priority\":6}", 6);
        for (int i = pushed.size(); i < 60; i++) {
            pushed.add(push(i % 2 == 0 ? a : b, topic));
        }
        Consumers consumers = new Consumers(topic, 30);
        consumers.runUntil(pushed);

        assertThat(consumers.mostHeld.get()).isBetween(2, 4);
        assertThat(consumers.delivered).containsOnlyKeys(pushed);
        assertThat(consumers.delivered.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    }

    /**
     * Sets the topic's settings on {@code a} and pushes to {@code b} until a push there takes the priority they
     * give: then both instances hold them (a at once, b at its reload). Answers the ids pushed meanwhile.
     */
    private static Set<String> settingsSeenByBoth(String topic, String settings, int priority) {
        var response = a.http().send("PUT", "/topics/" + topic, null, settings);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Set<String> pushed = ConcurrentHashMap.newKeySet();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            String id = push(b, topic);
            pushed.add(id);
            return b.get("/job/" + id).data().get("priority").asInt() == priority;
        });
        return pushed;
    }

    /**
     * Three consumers on each server, each popping up to three messages at a time and finishing each after holding
     * it {@code holdMs}. A message counts as held from its reply until just before its finish is sent, so the
     * consumers never hold more than the servers count as reserved.
     */
    private static final class Consumers {
        final Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        final AtomicInteger held = new AtomicInteger();
        final AtomicInteger mostHeld = new AtomicInteger();
        private final String topic;
        private final long holdMs;

        Consumers(String topic, long holdMs) {
            this.topic = topic;
            this.holdMs = holdMs;
        }

        void runUntil(Set<String> pushed) throws InterruptedException {
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            for (int c = 0; c < 6; c++) {
                RunningServer server = c % 2 == 0 ? a : b;
                pool.execute(() -> {
                    while (!stop.get()) {
                        consumeOnce(server);
                    }
                });
            }
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.keySet().containsAll(pushed));
            } finally {
                stop.set(true);
                pool.shutdown();
                assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            }
        }

        private void consumeOnce(RunningServer server) {
            Reply reply = server.get("/get/" + topic + "?timeout=1000&count=3");
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            List<String> ids = new java.util.ArrayList<>();
            for (JsonNode m : reply.data()) {
                ids.add(m.get("id").asString());
            }
            int now = held.addAndGet(ids.size());
            mostHeld.accumulateAndGet(now, Math::max);
            for (String id : ids) {
                delivered.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                if (holdMs > 0) {
                    await().pollDelay(Duration.ofMillis(holdMs)).until(() -> true);
                }
                held.decrementAndGet();
                assertThat(server.postForm("/finish?jobId=" + id).status()).isEqualTo(200);
            }
        }
    }

    /** The topic's READY to RESERVED transitions in the status log, by the UTC second they happened in. */
    private static Map<String, Long> reservationsPerSecond(String topic) throws SQLException {
        String sql = "SELECT DATE_FORMAT(l.changed_at, '%Y-%m-%d %H:%i:%s'), COUNT(*) FROM sdmq_message_log l "
                + "JOIN sdmq_message m ON m.id = l.message_id WHERE m.topic = ? AND l.from_status = 'READY' "
                + "AND l.to_status = 'RESERVED' GROUP BY 1";
        Map<String, Long> perSecond = new TreeMap<>();
        try (Connection c = db.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    perSecond.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return perSecond;
    }

    private static String push(RunningServer server, String topic) {
        Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":0}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static String topic(String name) {
        return "tl-" + name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }
}
