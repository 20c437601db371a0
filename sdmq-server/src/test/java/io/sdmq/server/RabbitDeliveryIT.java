package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.server.delivery.RabbitSinkType;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Delivery type rabbitmq against a real AMQP broker ({@link TestRabbit}): each due message is published to the
 * topic's exchange and finished only once the broker confirmed it and routed it; an unroutable message is retried
 * until DEAD; a broker cut off in the middle of a run finishes nothing the queue did not get and delivers everything
 * once it is back; bad settings are refused. The server reaches the broker through a {@link TcpProxy}.
 */
class RabbitDeliveryIT {
    private static TestDatabase db;
    private static DataSource dataSource;
    private static TcpProxy proxy;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        dataSource = db.dataSource();
        proxy = TcpProxy.to(TestRabbit.url().getHost(), TestRabbit.url().getPort());
        server = RunningServer.start(db, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                TestRabbit.serverProperties(proxy.port()));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
        proxy.close();
        ((AutoCloseable) dataSource).close();
    }

    @Test
    void every_message_reaches_the_queue_once_and_not_before_it_is_due_and_is_finished() throws Exception {
        String topic = topic("all");
        try (RabbitQueue queue = RabbitQueue.bound(topic)) {
            assertThat(deliverTo(topic, "{\"type\":\"rabbitmq\",\"exchange\":\"" + queue.exchange() + "\"}", "")
                    .status()).isEqualTo(200);
            Map<String, String> bodies = pushBatches(topic, 10, 1_000, 1_000, 6_000);

            await().atMost(Duration.ofMinutes(3)).until(() -> queue.timesById().size() == bodies.size());
            await().atMost(Duration.ofMinutes(1)).until(() -> finished(topic).size() == bodies.size());
            assertThat(queue.timesById()).allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
            assertThat(queue.timesById().keySet()).isEqualTo(bodies.keySet());
            for (RabbitQueue.Got got : queue.got()) {
                assertThat(got.receivedAt()).as(got.id()).isGreaterThanOrEqualTo(got.dueTime());
                assertThat(got.body()).isEqualTo(bodies.get(got.id()));
                assertThat(got.topic()).isEqualTo(topic);
                assertThat(got.attempt()).isEqualTo(1);
                assertThat(got.bizKey()).isEqualTo("k-" + got.body());
                assertThat(got.persistent()).isTrue();
            }
        }
    }

    @Test
    void an_unroutable_message_is_not_finished_but_retried_until_dead_with_the_reason_in_its_log() {
        String topic = topic("unroutable");
        try (RabbitQueue exchange = RabbitQueue.unbound()) {
            assertThat(deliverTo(topic, "{\"type\":\"rabbitmq\",\"exchange\":\"" + exchange.exchange() + "\"}",
                    "\"maxAttempts\":3,\"retryDelays\":[200,400],").status()).isEqualTo(200);
            List<String> ids = new ArrayList<>(pushBatches(topic, 1, 5, 0, 500).keySet());

            await().atMost(Duration.ofMinutes(1)).until(() -> ids.stream().allMatch(id -> "DEAD".equals(status(id))));
            for (String id : ids) {
                JsonNode job = server.get("/job/" + id).data();
                assertThat(job.get("attempts").asInt()).isEqualTo(3);
                assertThat(job.get("history").findValuesAsString("to")).doesNotContain("FINISHED");
                assertThat(job.get("history").toString())
                        .contains(TestRabbit.embedded() ? "rabbitmq: nack" : "rabbitmq: unroutable: NO_ROUTE");
            }
        }
    }

    @Test
    void a_broker_cut_off_mid_run_finishes_nothing_the_queue_did_not_get_and_everything_once_it_is_back()
            throws Exception {
        String topic = topic("cut");
        int concurrency = 64;
        try (RabbitQueue queue = RabbitQueue.bound("orders")) {
            assertThat(deliverTo(topic, "{\"type\":\"rabbitmq\",\"exchange\":\"" + queue.exchange()
                            + "\",\"routingKey\":\"orders\",\"timeout\":3000,\"concurrency\":" + concurrency + "}",
                    "\"maxAttempts\":100,\"retryDelays\":[500],").status()).isEqualTo(200);
            Map<String, String> bodies = pushBatches(topic, 2, 1_000, 0, 8_000);
            await().atMost(Duration.ofMinutes(1)).until(() -> queue.timesById().size() >= 300);

            proxy.cut();
            try {
                // while cut off, whatever is finished was confirmed: the queue has it (consumed now or soon). Spring
                // AMQP's own threads throw as their channels die: those are its logs, not this test's failures
                await().dontCatchUncaughtExceptions().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(30))
                        .until(() -> finished(topic).size() < bodies.size());
                Set<String> finishedInCut = finished(topic);
                Reply health = server.get("/actuator/health");
                assertThat(health.status()).as("a broker down leaves the server healthy").isEqualTo(200);
                assertThat(health.json().get("status").asString()).isEqualTo("UP");
                await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(30))
                        .until(() -> queue.timesById().keySet().containsAll(finishedInCut));
            } finally {
                proxy.restore();
            }

            await().dontCatchUncaughtExceptions().atMost(Duration.ofMinutes(2))
                    .until(() -> finished(topic).size() == bodies.size());
            await().atMost(Duration.ofMinutes(1)).until(() -> queue.timesById().keySet().equals(bodies.keySet()));
            assertThat(MessageHistory.withLogRow(dataSource, "note LIKE 'rabbitmq: %'")).as("sends failed in the cut")
                    .isPositive();
            long duplicates = queue.timesById().values().stream().filter(times -> times > 1).count();
            assertThat(duplicates).as("sent again after the broker had them: only those unconfirmed at the cut")
                    .isLessThanOrEqualTo(concurrency);
        }
    }

    @Test
    void a_connection_without_correlated_confirms_and_returns_opens_no_sink() {
        CachingConnectionFactory plain = TestRabbit.connectionFactory();
        try {
            RabbitSinkType type = new RabbitSinkType(plain);
            Map<String, Object> delivery = type.check(Map.of("type", "rabbitmq", "exchange", ""));
            assertThatThrownBy(() -> type.open(topic("plain"), delivery)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("spring.rabbitmq.publisher-confirm-type=correlated");
        } finally {
            plain.destroy();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"type\":\"rabbitmq\"}|delivery.exchange: is required",
            "{\"type\":\"rabbitmq\",\"exchange\":7}|delivery.exchange: must be a string",
            "{\"type\":\"rabbitmq\",\"exchange\":\"x\",\"timeout\":99}|delivery.timeout: must be in 100..60000",
            "{\"type\":\"rabbitmq\",\"exchange\":\"x\",\"timeout\":60001}|delivery.timeout: must be in 100..60000",
            "{\"type\":\"rabbitmq\",\"exchange\":\"x\",\"concurrency\":0}|delivery.concurrency: must be in 1..10000",
            "{\"type\":\"rabbitmq\",\"exchange\":\"x\",\"routingKey\":true}|delivery.routingKey: must be a string",
            "{\"type\":\"rabbitmq\",\"exchange\":\"x\",\"queue\":\"q\"}|delivery.queue: is unknown for type rabbitmq"})
    void a_bad_setting_answers_400_naming_its_field_and_changes_nothing(String delivery, String message) {
        String topic = topic("bad");
        assertThat(deliverTo(topic, "{\"type\":\"rabbitmq\",\"exchange\":\"\"}", "").status()).isEqualTo(200);
        JsonNode stored = server.get("/topics/" + topic).data().get("settings");
        JsonNode defaults = stored.get("delivery");
        assertThat(defaults.get("exchange").asString()).isEmpty();
        assertThat(defaults.get("timeout").asInt()).isEqualTo(10_000);
        assertThat(defaults.get("concurrency").asInt()).isEqualTo(256);

        Reply bad = deliverTo(topic, delivery, "");
        assertThat(bad.status()).as(bad.body()).isEqualTo(400);
        assertThat(bad.json().get("message").asString()).startsWith(message);
        assertThat(server.get("/topics/" + topic).data().get("settings")).isEqualTo(stored);
    }

    /** PUT /topics/{topic} with {@code otherSettings} (each followed by a comma) and the delivery. */
    private static Reply deliverTo(String topic, String delivery, String otherSettings) {
        var response = server.http().send("PUT", "/topics/" + topic, null, "{" + otherSettings + "\"delivery\":"
                + delivery + "}");
        return new Reply(response.statusCode(), response.body());
    }

    /** Pushes batches of messages due in minDelay..maxDelay ms; answers each id's body. */
    private static Map<String, String> pushBatches(String topic, int batches, int size, int minDelay, int maxDelay) {
        Map<String, String> bodies = new HashMap<>();
        for (int b = 0; b < batches; b++) {
            StringBuilder json = new StringBuilder("[");
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                String body = b + "-" + i;
                sent.add(body);
                json.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(topic).append("\",\"bizKey\":\"k-")
                        .append(body).append("\",\"body\":\"").append(body).append("\",\"delay\":")
                        .append(ThreadLocalRandom.current().nextInt(minDelay, maxDelay + 1)).append('}');
            }
            Reply reply = server.post("/push/batch", json.append(']').toString());
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            for (int i = 0; i < size; i++) {
                bodies.put(reply.data().get(i).asString(), sent.get(i));
            }
        }
        return bodies;
    }

    private static String status(String id) {
        return server.get("/job/" + id).data().get("status").asString();
    }

    private static Set<String> finished(String topic) throws Exception {
        Set<String> ids = new HashSet<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT id FROM sdmq_message WHERE topic = ? AND status = 'FINISHED'")) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(Long.toString(rs.getLong(1)));
                }
            }
        }
        return ids;
    }

    private static String topic(String name) {
        return "rabbit-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
