package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each bulk action over 100 000 messages while consumers run: nothing lost, nothing delivered twice while
 * unacknowledged, a message finished meanwhile left alone, and a repeated action a no-op. The messages go in with
 * {@code /push/batch} of 1 000 (the dead ones of the requeue as rows of MySQL), so that the tests stay short.
 */
class BulkActionsIT {
    private static final int MESSAGES = 100_000;
    private static final int BATCH = 1_000;
    private static final int CONSUMERS = 4;
    /** Due in ten minutes: not yet cold (beyond sdmq.scheduler.cold-after), not due during the test. */
    private static final long LATER = 600_000;
    private static final Duration DRAIN = Duration.ofMinutes(5);

    private static RunningServer server;
    private static DataSource db;

    @BeforeAll
    static void startServer() {
        TestDatabase database = TestServices.freshDatabase();
        db = database.dataSource();
        // the machine's MySQL is shared: a commit slower than the default 5 s must not fail a consumer's finish,
        // which is not what these tests are about
        server = RunningServer.start(database, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("sdmq.journal.write-timeout", "60s"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void run_now_makes_every_pending_message_due_and_each_is_delivered_once() throws Exception {
        String topic = topic();
        Set<String> ids = push(topic, i -> LATER);
        try (Deliveries deliveries = consumers(topic)) {
            assertResult(action("/messages/run-now", "{\"topic\":\"" + topic + "\"}"), MESSAGES, MESSAGES);

            deliveries.awaitDelivered(ids, DRAIN, db);
            deliveries.stopAndCheckFinishes();
            assertThat(deliveries.duplicates()).isZero();
            assertThat(deliveries.early()).isEmpty();
        }
        assertResult(action("/messages/run-now", "{\"topic\":\"" + topic + "\"}"), 0, 0);
        assertThat(statuses(topic)).isEqualTo(Map.of("FINISHED", (long) MESSAGES));
        assertThat(notes(topic, "run-now by anonymous")).isEqualTo(MESSAGES);
    }

    @Test
    void requeue_brings_every_dead_message_back_and_each_is_delivered_once() throws Exception {
        String topic = topic();
        Set<String> ids = insertDead(topic);
        try (Deliveries deliveries = consumers(topic)) {
            assertResult(action("/messages/requeue", "{\"topic\":\"" + topic + "\",\"status\":\"DEAD\"}"),
                    MESSAGES, MESSAGES);

            deliveries.awaitDelivered(ids, DRAIN, db);
            deliveries.stopAndCheckFinishes();
            assertThat(deliveries.duplicates()).isZero();
        }
        assertResult(action("/messages/requeue", "{\"topic\":\"" + topic + "\"}"), 0, 0);
        assertThat(statuses(topic)).isEqualTo(Map.of("FINISHED", (long) MESSAGES));
        assertThat(notes(topic, "requeue by anonymous")).isEqualTo(MESSAGES);
    }

    @Test
    void delete_deletes_pending_and_reserved_messages_and_leaves_the_finished_alone() throws Exception {
        String topic = topic();
        assertDeletedOrFinished(topic, "/messages/delete", "{\"topic\":\"" + topic + "\"}", "delete by anonymous");
    }

    @Test
    void purge_deletes_every_pending_message_of_its_topic_and_leaves_the_finished_alone() throws Exception {
        String topic = topic();
        String other = topic();
        Set<String> untouched = push(other, i -> LATER);
        assertDeletedOrFinished(topic, "/topics/" + topic + "/purge", "", "purge by anonymous");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(statuses(other)).isEqualTo(Map.of("DELAY", (long) untouched.size())));
    }

    /**
     * Half the messages due now and consumed while the action runs, half due in an hour: every message ends FINISHED
     * (its finish answered 200) or DELETED by the action, never both, none delivered twice.
     */
    private void assertDeletedOrFinished(String topic, String path, String body, String note) throws Exception {
        Set<String> ids;
        Reply result;
        Deliveries deliveries = consumers(topic);
        try (deliveries) {
            ids = push(topic, i -> i % 2 == 0 ? 0 : LATER);
            result = action(path, body);
            deliveries.stop();
            assertThat(deliveries.duplicates()).isZero();
        }
        JsonNode counts = result.data();
        assertThat(counts.get("matched").asLong()).isGreaterThanOrEqualTo(MESSAGES / 2);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, Long> statuses = statuses(topic);
            assertThat(statuses.keySet()).isSubsetOf("FINISHED", "DELETED");
            assertThat(statuses.get("DELETED")).isEqualTo(counts.get("changed").asLong());
        });
        assertThat(idsIn(topic, "FINISHED")).isEqualTo(deliveries.finishedAt().keySet());
        Set<String> deleted = idsIn(topic, "DELETED");
        assertThat(deleted).hasSizeGreaterThanOrEqualTo(MESSAGES / 2);
        // not isSubsetOf, which compares each with each: 100 000 × 100 000
        assertThat(deleted.stream().filter(id -> !ids.contains(id)).toList()).as("deleted, never pushed").isEmpty();
        assertThat(notes(topic, note)).isEqualTo(counts.get("changed").asLong());
        assertResult(action(path, body), 0, 0);
    }

    private static Deliveries consumers(String topic) {
        Deliveries deliveries = new Deliveries();
        for (int i = 0; i < CONSUMERS; i++) {
            deliveries.consumeInBatches(server, topic);
        }
        return deliveries;
    }

    private static Reply action(String path, String body) {
        Reply reply = server.post(path, body);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply;
    }

    private static void assertResult(Reply reply, long matched, long changed) {
        assertThat(reply.data().get("matched").asLong()).as(reply.body()).isEqualTo(matched);
        assertThat(reply.data().get("changed").asLong()).as(reply.body()).isEqualTo(changed);
    }

    /** {@link #MESSAGES} messages in batches of {@link #BATCH}, message i due after {@code delay(i)}, TTR 5 min. */
    private static Set<String> push(String topic, IntToLongFunction delay) throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> batches = new ArrayList<>();
            for (int b = 0; b < MESSAGES / BATCH; b++) {
                int first = b * BATCH;
                batches.add(pool.submit(() -> {
                    StringBuilder json = new StringBuilder("[");
                    for (int i = first; i < first + BATCH; i++) {
                        json.append(i == first ? "" : ",").append("{\"topic\":\"").append(topic)
                                .append("\",\"body\":\"m").append(i).append("\",\"ttr\":300000,\"delay\":")
                                .append(delay.applyAsLong(i)).append('}');
                    }
                    Reply reply = server.post("/push/batch", json.append(']').toString());
                    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                    reply.data().forEach(id -> ids.add(id.asString()));
                }));
            }
            for (Future<?> batch : batches) {
                batch.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(ids).hasSize(MESSAGES);
        return ids;
    }

    /** {@link #MESSAGES} DEAD messages written straight into MySQL, as if each had used up its attempts. */
    private static Set<String> insertDead(String topic) throws SQLException {
        long base = 1_000_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L) * MESSAGES;
        try (Connection connection = db.getConnection(); PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO sdmq_message (id, topic, biz_key, body, priority, delay_ms, ttr_ms, max_attempts,
                    retry_delays, create_time, due_time, status, attempts, update_time)
                SELECT ? + seq, ?, NULL, CONCAT('dead ', seq), 0, 0, 300000, 3, NULL,
                    UTC_TIMESTAMP(3) - INTERVAL 1 HOUR, UTC_TIMESTAMP(3) - INTERVAL 1 HOUR, 'DEAD', 3,
                    UTC_TIMESTAMP(3) - INTERVAL 1 HOUR
                FROM seq_1_to_100000""")) {
            insert.setLong(1, base);
            insert.setString(2, topic);
            assertThat(insert.executeUpdate()).isEqualTo(MESSAGES);
        }
        Set<String> ids = new HashSet<>();
        for (long i = 1; i <= MESSAGES; i++) {
            ids.add(Long.toString(base + i));
        }
        return ids;
    }

    private static Map<String, Long> statuses(String topic) throws SQLException {
        Map<String, Long> counts = new HashMap<>();
        try (Connection connection = db.getConnection(); PreparedStatement query = connection.prepareStatement(
                "SELECT status, COUNT(*) FROM sdmq_message WHERE topic = ? GROUP BY status")) {
            query.setString(1, topic);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return counts;
    }

    private static Set<String> idsIn(String topic, String status) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection connection = db.getConnection(); PreparedStatement query = connection.prepareStatement(
                "SELECT id FROM sdmq_message WHERE topic = ? AND status = ?")) {
            query.setString(1, topic);
            query.setString(2, status);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    /** Status log rows of the topic's messages with that note. */
    private static long notes(String topic, String note) throws SQLException {
        try (Connection connection = db.getConnection(); PreparedStatement query = connection.prepareStatement(
                "SELECT COUNT(*) FROM sdmq_message_log l JOIN sdmq_message m ON m.id = l.message_id"
                        + " WHERE m.topic = ? AND l.note = ?")) {
            query.setString(1, topic);
            query.setString(2, note);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static String topic() {
        return "bulk-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }
}
