package io.sdmq.server;

import io.sdmq.server.KafkaRecords.Got;
import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

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
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The kafka delivery against a real KRaft broker ({@link TestKafka}): every message produced once and not before it
 * is due, a record the topic refuses dead at once, a broker killed and restarted in the middle of a run, and bad
 * settings refused.
 */
class KafkaDeliveryIT {
    private static TestKafka kafka;
    private static TestDatabase db;
    private static RunningServer server;

    @BeforeAll
    static void startBrokerAndServer() {
        kafka = TestKafka.start();
        db = TestServices.freshDatabase();
        server = serverFor(db, kafka);
    }

    @AfterAll
    static void stopAll() {
        server.close();
        kafka.close();
    }

    @Test
    void ten_thousand_messages_reach_the_kafka_topic_once_each_none_early_and_all_are_finished() throws Exception {
        String topic = name("all");
        kafka.createTopic(topic, 3, Map.of());
        try (KafkaRecords records = KafkaRecords.read(kafka, topic)) {
            assertThat(put(server, topic, "{\"delivery\":{\"type\":\"kafka\",\"topic\":\"" + topic + "\"}}")
                    .status()).isEqualTo(200);
            JsonNode shown = server.get("/topics/" + topic).data().get("settings").get("delivery");
            assertThat(shown.get("timeout").asInt()).isEqualTo(30_000);
            assertThat(shown.get("concurrency").asInt()).isEqualTo(1_000);

            Map<String, Pushed> pushed = push(server, topic, 10_000, 4_000);

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> records.ids().containsAll(pushed.keySet()));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> withStatus(db, topic, "FINISHED").size() == pushed.size());
            assertThat(records.ids()).hasSameSizeAs(pushed.keySet());
            records.byId().forEach((id, copies) -> {
                assertThat(copies).as("copies of %s", id).hasSize(1);
                Got got = copies.get(0);
                Pushed sent = pushed.get(id);
                assertThat(got.arrivedAt()).as("arrival of %s", id).isGreaterThanOrEqualTo(got.dueTime());
                assertThat(got.timestamp()).as("produce time of %s", id).isGreaterThanOrEqualTo(got.dueTime());
                assertThat(got.body()).isEqualTo(sent.body());
                assertThat(got.key()).isEqualTo(sent.bizKey() != null ? sent.bizKey() : id);
                assertThat(got.headers()).containsEntry("sdmq-topic", topic).containsEntry("sdmq-attempt", "1");
                assertThat(got.headers().get("sdmq-biz-key")).isEqualTo(sent.bizKey());
            });
        }
    }

    @Test
    void a_broker_outage_finishes_nothing_the_topic_does_not_hold_and_everything_arrives_after_it() throws Exception {
        TestKafka broker = kafka.own() ? kafka : TestKafka.startOwn();
        TestDatabase ownDb = broker == kafka ? db : TestServices.freshDatabase();
        RunningServer on = broker == kafka ? server : serverFor(ownDb, broker);
        try {
            outage(broker, on, ownDb);
        } finally {
            if (broker != kafka) {
                on.close();
                broker.close();
            }
        }
    }

    private void outage(TestKafka broker, RunningServer on, TestDatabase database) throws Exception {
        String topic = name("outage");
        // the broker's clock on each record: which ones it had appended before it was killed
        broker.createTopic(topic, 1, Map.of("message.timestamp.type", "LogAppendTime"));
        try (KafkaRecords records = KafkaRecords.read(broker, topic)) {
            assertThat(put(on, topic, "{\"maxAttempts\":100,\"retryDelays\":[1000],\"delivery\":{\"type\":\"kafka\","
                    + "\"topic\":\"" + topic + "\",\"timeout\":2000,\"concurrency\":200}}").status()).isEqualTo(200);
            Map<String, Pushed> pushed = push(on, topic, 2_000, 8_000);
            await().atMost(Duration.ofSeconds(60)).until(() -> records.ids().size() >= 200);

            broker.stop();
            long stoppedAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> !failedSends(database, topic).isEmpty());
            Set<String> finishedInOutage = withStatus(database, topic, "FINISHED");
            broker.startAgain();

            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> records.ids().containsAll(pushed.keySet())
                            && withStatus(database, topic, "FINISHED").size() == pushed.size());
            Set<String> heldBeforeOutage = records.byId().entrySet().stream()
                    .filter(e -> e.getValue().stream().anyMatch(g -> g.timestamp() < stoppedAt))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            assertThat(heldBeforeOutage).containsAll(finishedInOutage);

            Set<String> failed = failedSends(database, topic);
            System.out.printf("Kafka broker killed: %d messages, %d finished before it, %d had failed sends, %d came"
                    + " more than once (%d records in all)%n", pushed.size(), finishedInOutage.size(), failed.size(),
                    records.byId().values().stream().filter(c -> c.size() > 1).count(),
                    records.byId().values().stream().mapToInt(List::size).sum());
            records.byId().forEach((id, copies) -> {
                assertThat(copies).allMatch(g -> g.arrivedAt() >= g.dueTime(), "none early");
                if (copies.size() > 1) {
                    assertThat(failed).as("a duplicate of %s without a failed send", id).contains(id);
                    assertThat(copies.stream().map(g -> g.headers().get("sdmq-attempt")).distinct())
                            .as("attempts of the copies of %s", id).hasSize(copies.size());
                }
            });
        }
    }

    @Test
    void a_record_the_topic_refuses_as_too_large_is_dead_at_once_with_kafkas_reason() throws Exception {
        String topic = name("large");
        kafka.createTopic(topic, 1, Map.of("max.message.bytes", "2000"));
        assertThat(put(server, topic, "{\"maxAttempts\":5,\"delivery\":{\"type\":\"kafka\",\"topic\":\"" + topic
                + "\",\"timeout\":5000}}").status()).isEqualTo(200);
        String large = pushOne(topic, "x".repeat(5_000));
        String small = pushOne(topic, "small");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> withStatus(db, topic, "DEAD").contains(large)
                        && withStatus(db, topic, "FINISHED").contains(small));
        JsonNode dead = server.get("/job/" + large).data();
        assertThat(dead.get("attempts").asInt()).isEqualTo(1);
        assertThat(dead.get("history").toString()).contains("Kafka refused the record");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void a_bad_setting_answers_400_naming_its_field_and_changes_nothing(String delivery, String field) {
        String topic = name("bad");
        assertThat(put(server, topic, "{\"ttr\":4000,\"delivery\":{\"type\":\"kafka\",\"topic\":\"before\","
                + "\"timeout\":5000}}").status()).isEqualTo(200);
        String stored = server.get("/topics/" + topic).data().get("settings").toString();

        Reply bad = put(server, topic, "{\"ttr\":6000,\"delivery\":" + delivery + "}");
        assertThat(bad.status()).as(bad.body()).isEqualTo(400);
        assertThat(bad.json().get("message").asString()).startsWith(field + ":");
        assertThat(server.get("/topics/" + topic).data().get("settings").toString()).isEqualTo(stored);
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("{\"type\":\"kafka\"}", "delivery.topic"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"a b\"}", "delivery.topic"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"..\"}", "delivery.topic"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"" + "t".repeat(250) + "\"}", "delivery.topic"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":7}", "delivery.topic"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"t\",\"timeout\":999}", "delivery.timeout"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"t\",\"timeout\":120001}", "delivery.timeout"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"t\",\"concurrency\":0}", "delivery.concurrency"),
                Arguments.of("{\"type\":\"kafka\",\"topic\":\"t\",\"acks\":\"1\"}", "delivery.acks"));
    }

    private record Pushed(String body, String bizKey) {
    }

    /** Pushes {@code count} messages in batches of 1 000, due within {@code spreadMs}; every other one has a bizKey. */
    private static Map<String, Pushed> push(RunningServer on, String topic, int count, int spreadMs) {
        Map<String, Pushed> pushed = new HashMap<>();
        for (int from = 0; from < count; from += 1_000) {
            List<Pushed> batch = new ArrayList<>();
            StringBuilder json = new StringBuilder("[");
            for (int i = from; i < Math.min(count, from + 1_000); i++) {
                Pushed p = new Pushed("body " + i + " é✓", i % 2 == 0 ? "key-" + i : null);
                batch.add(p);
                json.append(batch.size() == 1 ? "" : ",").append("{\"topic\":\"").append(topic)
                        .append("\",\"body\":\"").append(p.body()).append("\",\"delay\":")
                        .append(ThreadLocalRandom.current().nextInt(spreadMs))
                        .append(p.bizKey() == null ? "" : ",\"bizKey\":\"" + p.bizKey() + "\"").append('}');
            }
            Reply reply = on.post("/push/batch", json.append(']').toString());
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            for (int i = 0; i < batch.size(); i++) {
                pushed.put(reply.data().get(i).asString(), batch.get(i));
            }
        }
        return pushed;
    }

    private static String pushOne(String topic, String body) {
        Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"" + body + "\",\"delay\":0}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static Set<String> withStatus(TestDatabase database, String topic, String status) throws SQLException {
        return ids(database, "SELECT id FROM sdmq_message WHERE topic = ? AND status = '" + status + "'", topic);
    }

    /** Ids of the topic's messages whose status log holds a failed send. */
    private static Set<String> failedSends(TestDatabase database, String topic) throws SQLException {
        return ids(database, "SELECT DISTINCT l.message_id FROM sdmq_message_log l"
                + " JOIN sdmq_message m ON m.id = l.message_id"
                + " WHERE m.topic = ? AND (l.note LIKE 'Kafka%' OR l.note LIKE 'not produced%')", topic);
    }

    private static Set<String> ids(TestDatabase database, String sql, String topic) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = database.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(Long.toString(rs.getLong(1)));
                }
            }
        }
        return ids;
    }

    private static RunningServer serverFor(TestDatabase database, TestKafka broker) {
        return RunningServer.start(database, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("spring.kafka.bootstrap-servers", broker.bootstrap()));
    }

    private static Reply put(RunningServer on, String topic, String json) {
        var response = on.http().send("PUT", "/topics/" + topic, null, json);
        return new Reply(response.statusCode(), response.body());
    }

    private static String name(String what) {
        return "kd-" + what + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }
}
