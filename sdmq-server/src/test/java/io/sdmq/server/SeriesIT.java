package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /topics/{topic}/series}: deliveries made through two instances appear merged in each minute, on either
 * instance, and each minute's lateness p50 and p99 are within the buckets' error (4.5% plus 0.5 ms) of the true
 * nearest-rank percentiles, computed here from the status log's hand-out times (the very times the instances
 * counted).
 */
class SeriesIT {
    private static final int PER_ROUND = 60;

    @Test
    void deliveries_through_two_instances_are_merged_per_minute_with_their_lateness_percentiles() throws Exception {
        TestDatabase db = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        String topic = "series-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String redis = TestServices.redisUrl();
        try (RunningServer a = RunningServer.start(db, redis, prefix, Map.of("sdmq.host", "inst-a"));
             RunningServer b = RunningServer.start(db, redis, prefix, Map.of("sdmq.host", "inst-b"))) {
            // two rounds of pushes 800 ms apart, then taken at once: lateness from a few ms to about a second
            push(a, b, topic);
            Thread.sleep(800);
            push(a, b, topic);
            int fromA = take(a, topic, 2 * PER_ROUND);
            int fromB = take(b, topic, 4 * PER_ROUND - fromA);
            assertThat(fromA).as("deliveries through inst-a").isPositive();
            assertThat(fromB).as("deliveries through inst-b").isPositive();

            Map<Long, List<Long>> truth = await().atMost(Duration.ofSeconds(30))
                    .until(() -> latenessByMinute(db, topic), t -> t.values().stream().mapToInt(List::size).sum()
                            == 4 * PER_ROUND);
            await("every delivery flushed").atMost(Duration.ofSeconds(10))
                    .until(() -> total(a.get("/topics/" + topic + "/series?minutes=3").data()) == 4 * PER_ROUND);
            for (RunningServer server : List.of(a, b)) {
                JsonNode series = server.get("/topics/" + topic + "/series?minutes=3").data();
                assertThat(series.get("topic").asString()).isEqualTo(topic);
                assertThat(series.get("step").asLong()).isEqualTo(60_000);
                for (JsonNode point : series.get("points")) {
                    List<Long> values = truth.getOrDefault(point.get("at").asLong(), List.of());
                    assertThat(point.get("deliveries").asLong()).isEqualTo(values.size());
                    assertPercentile(point.get("latenessP50"), values, 0.50);
                    assertPercentile(point.get("latenessP99"), values, 0.99);
                }
            }
        }
    }

    @Test
    void an_hour_of_minutes_oldest_first_with_zeros_and_nulls_where_nothing_was_delivered() {
        try (WatchedServer watched = WatchedServer.start(Map.of())) {
            Reply reply = watched.server().get("/topics/quiet/series");
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            JsonNode points = reply.data().get("points");
            assertThat(points).hasSize(60);
            long now = System.currentTimeMillis();
            long last = points.get(59).get("at").asLong();
            assertThat(last % 60_000).isZero();
            assertThat(last).isBetween(now - 120_000, now);
            for (int i = 0; i < 60; i++) {
                JsonNode point = points.get(i);
                assertThat(point.get("at").asLong()).isEqualTo(last - (59 - i) * 60_000L);
                assertThat(point.get("deliveries").asLong()).isZero();
                assertThat(point.get("perSecond").asDouble()).isZero();
                assertThat(point.get("latenessP50").isNull()).isTrue();
                assertThat(point.get("latenessP99").isNull()).isTrue();
            }
            assertThat(watched.server().get("/topics/quiet/series?minutes=1").data().get("points")).hasSize(1);
            assertThat(watched.server().get("/topics/quiet/series?minutes=60").status()).isEqualTo(200);
            for (String bad : List.of("0", "61", "-3", "x", "1.5")) {
                Reply refused = watched.server().get("/topics/quiet/series?minutes=" + bad);
                assertThat(refused.status()).as(bad).isEqualTo(400);
                assertThat(refused.json().get("message").asString()).as(bad).startsWith("minutes: ");
            }
        }
    }

    private static void assertPercentile(JsonNode read, List<Long> values, double p) {
        if (values.isEmpty()) {
            assertThat(read.isNull()).isTrue();
            return;
        }
        List<Long> sorted = values.stream().sorted().toList();
        long truth = sorted.get((int) Math.ceil(p * sorted.size()) - 1);
        assertThat((double) Math.abs(read.asLong() - truth)).as("p%s read %s, true %d", p, read, truth)
                .isLessThanOrEqualTo(0.045 * truth + 0.5);
    }

    private static long total(JsonNode series) {
        long total = 0;
        for (JsonNode point : series.get("points")) {
            total += point.get("deliveries").asLong();
        }
        return total;
    }

    private static void push(RunningServer a, RunningServer b, String topic) {
        for (RunningServer server : List.of(a, b)) {
            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i < PER_ROUND; i++) {
                batch.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(topic)
                        .append("\",\"body\":\"s\",\"delay\":0}");
            }
            Reply pushed = server.post("/push/batch", batch.append("]").toString());
            assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
        }
    }

    /** Takes up to {@code count} messages through {@code server} and finishes them; how many it took. */
    private static int take(RunningServer server, String topic, int count) {
        int taken = 0;
        while (taken < count) {
            JsonNode got = server.get("/get/" + topic + "?timeout=2000&count=" + Math.min(50, count - taken)).data();
            if (got.isEmpty()) {
                break;
            }
            for (JsonNode m : got) {
                assertThat(server.postForm("/finish?jobId=" + m.get("id").asString()).status()).isEqualTo(200);
                taken++;
            }
        }
        return taken;
    }

    /** Each hand-out's lateness in ms, by the minute it happened in, from the status log. */
    private static Map<Long, List<Long>> latenessByMinute(TestDatabase db, String topic) throws SQLException {
        Map<Long, List<Long>> byMinute = new TreeMap<>();
        String sql = """
                SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', l.changed_at) DIV 1000,
                    TIMESTAMPDIFF(MICROSECOND, m.due_time, l.changed_at) DIV 1000
                FROM sdmq_message_log l JOIN sdmq_message m ON m.id = l.message_id
                WHERE l.to_status = 'RESERVED' AND m.topic = ?""";
        try (Connection c = db.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long at = rs.getLong(1);
                    byMinute.computeIfAbsent(at - at % 60_000, m -> new ArrayList<>()).add(Math.max(0, rs.getLong(2)));
                }
            }
        }
        return byMinute;
    }
}
