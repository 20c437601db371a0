package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The per-topic metrics at {@code /actuator/prometheus} and {@code GET /topics/{topic}/stats} after a known workload:
 * every counter equals what happened, per topic; the lateness timer counts every delivery; the gauges and the stats
 * match the messages' statuses; topics beyond {@code sdmq.metrics.max-topics} are tagged {@code other}.
 */
class MetricsIT {
    private static TestDatabase db;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        server = RunningServer.start(db, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("sdmq.metrics.refresh", "200ms"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void counters_timer_gauges_and_stats_follow_a_known_workload_per_topic() {
        String a = topic("work");
        String b = topic("idle");
        for (int i = 0; i < 5; i++) {
            push(a, ",\"delay\":0");
        }
        List<String> ids = new ArrayList<>();
        await().untilAsserted(() -> {
            server.get("/get/" + a + "?timeout=1000&count=5").data().forEach(m -> ids.add(m.get("id").asString()));
            assertThat(ids).hasSize(5);
        });
        for (int i = 0; i < 3; i++) {
            assertThat(server.postForm("/finish?id=" + ids.get(i)).status()).isEqualTo(200);
        }
        assertThat(server.postForm("/nack?id=" + ids.get(3) + "&dead=true").status()).isEqualTo(200);
        assertThat(server.postForm("/nack?id=" + ids.get(4) + "&delay=600000").status()).isEqualTo(200);
        // delivered once, its time-to-run passes: due again in ten minutes
        String expiring = push(a, ",\"delay\":0,\"ttr\":1000,\"maxAttempts\":2,\"retryDelays\":[600000]");
        JsonNode popped = server.get("/get/" + a + "?timeout=5000").data().get(0);
        assertThat(popped.get("id").asString()).isEqualTo(expiring);
        for (int i = 0; i < 3; i++) {
            push(b, ",\"delay\":0");
        }
        push(b, ",\"delay\":600000");

        await().untilAsserted(() -> {
            String metrics = prometheus();
            assertThat(value(metrics, "sdmq_messages_redelivered_total", a)).isEqualTo(1);
            assertThat(value(metrics, "sdmq_messages_pushed_total", a)).isEqualTo(6);
            assertThat(value(metrics, "sdmq_messages_delivered_total", a)).isEqualTo(6);
            assertThat(value(metrics, "sdmq_messages_finished_total", a)).isEqualTo(3);
            assertThat(value(metrics, "sdmq_messages_nacked_total", a)).isEqualTo(2);
            assertThat(value(metrics, "sdmq_messages_dead_total", a)).isEqualTo(1);
            assertThat(value(metrics, "sdmq_delivery_lateness_seconds_count", a)).isEqualTo(6);
            assertThat(value(metrics, "sdmq_messages_pushed_total", b)).isEqualTo(4);
            assertThat(value(metrics, "sdmq_messages_delivered_total", b)).isZero();
            assertThat(value(metrics, "sdmq_delivery_lateness_seconds_count", b)).isZero();
            assertThat(gauge(metrics, a, "delayed")).isEqualTo(2);
            assertThat(gauge(metrics, a, "ready")).isZero();
            assertThat(gauge(metrics, a, "reserved")).isZero();
            assertThat(value(metrics, "sdmq_topic_oldest_due_age_seconds", a)).isZero();
            assertThat(gauge(metrics, b, "delayed")).isEqualTo(1);
            assertThat(gauge(metrics, b, "ready")).isEqualTo(3);
            assertThat(value(metrics, "sdmq_topic_oldest_due_age_seconds", b)).isPositive();
        });

        await().untilAsserted(() -> {
            JsonNode stats = stats(a);
            assertThat(counts(stats)).containsExactly(2L, 0L, 0L, 3L, 0L, 1L, 0L);
            assertThat(stats.get("oldestDueAge").asLong()).isZero();
            assertThat(stats.get("deliveries").asLong()).isEqualTo(6);
            assertThat(stats.get("deliveriesPerSecond").asDouble()).isEqualTo(6 / 300.0);
            // the three finished and the one dead were delivered last; the others were due again since
            assertThat(stats.get("latenessP50").asLong()).isNotNegative();
            assertThat(stats.get("latenessP99").asLong()).isGreaterThanOrEqualTo(stats.get("latenessP50").asLong());
        });
        JsonNode idle = stats(b);
        assertThat(counts(idle)).containsExactly(1L, 3L, 0L, 0L, 0L, 0L, 0L);
        assertThat(idle.get("oldestDueAge").asLong()).isPositive();
        assertThat(idle.get("deliveries").asLong()).isZero();
        assertThat(idle.get("latenessP50").isNull()).isTrue();
    }

    @Test
    void a_topic_without_messages_has_zero_stats() {
        JsonNode stats = stats(topic("none"));
        assertThat(counts(stats)).containsOnly(0L);
        assertThat(stats.get("oldestDueAge").asLong()).isZero();
        assertThat(stats.get("deliveries").asLong()).isZero();
    }

    @Test
    void a_bad_topic_name_on_the_stats_route_is_refused_naming_the_rule() {
        for (String bad : List.of("a%20b", "a*b", "x".repeat(65), "%C3%A9t%C3%A9")) {
            Reply reply = server.get("/topics/" + bad + "/stats");
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(ErrorEnvelope.messageOf(bad, 400, reply.body()))
                    .isEqualTo("topic: must match [A-Za-z0-9._-]{1,64}");
        }
    }

    @Test
    void topics_beyond_max_topics_are_tagged_other() {
        try (RunningServer bounded = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.metrics.max-topics", "2", "sdmq.metrics.refresh", "200ms"))) {
            List<String> topics = List.of(topic("first"), topic("second"), topic("third"), topic("fourth"));
            for (String topic : topics) {
                assertThat(bounded.post("/push", body(topic, ",\"delay\":600000")).status()).isEqualTo(200);
            }
            await().untilAsserted(() -> {
                String metrics = bounded.get("/actuator/prometheus").body();
                assertThat(value(metrics, "sdmq_messages_pushed_total", topics.get(0))).isEqualTo(1);
                assertThat(value(metrics, "sdmq_messages_pushed_total", topics.get(1))).isEqualTo(1);
                assertThat(value(metrics, "sdmq_messages_pushed_total", "other")).isEqualTo(2);
                assertThat(metrics).doesNotContain(topics.get(2)).doesNotContain(topics.get(3));
                assertThat(gauge(metrics, "other", "delayed")).isEqualTo(2);
            });
        }
    }

    /** The delayed, ready, reserved, finished, deleted, dead and expired counts of a stats reply. */
    private static List<Long> counts(JsonNode stats) {
        return List.of("delayed", "ready", "reserved", "finished", "deleted", "dead", "expired").stream()
                .map(field -> stats.get(field).asLong()).toList();
    }

    private static JsonNode stats(String topic) {
        Reply reply = server.get("/topics/" + topic + "/stats");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data();
    }

    private static String prometheus() {
        Reply reply = server.get("/actuator/prometheus");
        assertThat(reply.status()).isEqualTo(200);
        return reply.body();
    }

    private static double gauge(String metrics, String topic, String status) {
        return sample(metrics, "sdmq_topic_messages{status=\"" + status + "\",topic=\"" + topic + "\"}");
    }

    private static double value(String metrics, String name, String topic) {
        return sample(metrics, name + "{topic=\"" + topic + "\"}");
    }

    /** The value of the one sample whose name and labels are {@code series}, or a failed assertion. */
    private static double sample(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
        assertThat(m.find()).as(series + " in\n" + metrics.lines().filter(l -> l.startsWith("sdmq_")).toList())
                .isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static String push(String topic, String extra) {
        Reply reply = server.post("/push", body(topic, extra));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static String body(String topic, String extra) {
        return "{\"topic\":\"" + topic + "\",\"body\":\"m\"" + extra + "}";
    }

    private static String topic(String name) {
        return name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }
}
