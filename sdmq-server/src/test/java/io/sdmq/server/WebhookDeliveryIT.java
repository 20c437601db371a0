package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.server.WebhookReceiver.Answer;
import io.sdmq.server.WebhookReceiver.Received;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.sdmq.server.WebhookTopics.count;
import static io.sdmq.server.WebhookTopics.push;
import static io.sdmq.server.WebhookTopics.put;
import static io.sdmq.server.WebhookTopics.secret;
import static io.sdmq.server.WebhookTopics.topic;
import static io.sdmq.server.WebhookTopics.webhook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Webhook delivery on a server that allows 127.0.0.1: 10 000 messages each delivered once and not early and
 * FINISHED, Standard Webhooks signatures checked by a verifier written from the specification, the settings checked
 * with nothing changed by a bad one and no secret ever shown, and pops of a webhook topic refused.
 */
class WebhookDeliveryIT {
    private static final int MESSAGES = 10_000;
    private static final int BATCH = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestDatabase db;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        server = RunningServer.start(db, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("sdmq.delivery.webhook.allowed-hosts", "127.0.0.1"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void ten_thousand_messages_each_reach_the_receiver_once_none_early_and_all_are_finished() {
        String topic = topic("load");
        try (WebhookReceiver receiver = WebhookReceiver.start(r -> Answer.ok())) {
            webhook(server, topic, "\"maxAttempts\":5,", receiver.url(), secret(), ",\"concurrency\":64");
            Set<String> pushed = new HashSet<>();
            for (int from = 0; from < MESSAGES; from += BATCH) {
                StringBuilder json = new StringBuilder("[");
                for (int i = from; i < from + BATCH; i++) {
                    json.append(i == from ? "" : ",").append("{\"topic\":\"").append(topic)
                            .append("\",\"body\":\"{\\\"n\\\":").append(i).append("}\",\"delay\":")
                            .append(i * 7L % 4_000).append('}');
                }
                Reply reply = server.post("/push/batch", json.append(']').toString());
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                reply.data().forEach(id -> pushed.add(id.asString()));
            }
            assertThat(pushed).hasSize(MESSAGES);

            await().atMost(Duration.ofSeconds(60)).until(() -> count(db, topic, "FINISHED") == MESSAGES);
            List<Received> received = receiver.received();
            Map<String, Long> times = received.stream()
                    .collect(Collectors.groupingBy(r -> r.header("webhook-id"), Collectors.counting()));
            assertThat(times.keySet()).as("lost or unknown ids").isEqualTo(pushed);
            assertThat(times.values().stream().filter(n -> n > 1).count()).as("ids received twice").isZero();
            assertThat(received.stream().filter(r -> r.at() < r.dueTime()).map(r -> r.header("webhook-id")))
                    .as("received before their due time").isEmpty();
            assertThat(received).allSatisfy(r -> {
                assertThat(r.attempt()).isEqualTo(1);
                assertThat(r.header("sdmq-topic")).isEqualTo(topic);
                assertThat(r.text()).startsWith("{\"n\":");
            });
        }
    }

    @Test
    void each_configured_secret_signs_the_request_and_a_tampered_body_verifies_with_none() {
        String topic = topic("signed");
        String first = secret();
        String second = secret();
        try (WebhookReceiver receiver = WebhookReceiver.start(r -> Answer.ok())) {
            assertThat(put(server, topic, "{\"delivery\":{\"type\":\"webhook\",\"url\":\"" + receiver.url()
                    + "\",\"secrets\":[\"" + first + "\",\"" + second + "\"]}}").status()).isEqualTo(200);
            String body = "{\"order\":42,\"note\":\"café ☕\"}";
            String id = server.post("/push", "{\"topic\":\"" + topic + "\",\"bizKey\":\"order 42 ü\",\"body\":"
                    + JsonQuote.of(body) + ",\"delay\":0}").data().asString();
            String plainId = push(server, topic, "plain text");
            await().atMost(WAIT).until(() -> receiver.of(id).size() == 1 && receiver.of(plainId).size() == 1);

            Received signed = receiver.of(id).get(0);
            assertThat(signed.method()).isEqualTo("POST");
            assertThat(signed.path()).isEqualTo("/hook");
            assertThat(signed.text()).isEqualTo(body);
            assertThat(signed.header("content-type")).isEqualTo("application/json");
            assertThat(signed.header("sdmq-biz-key")).isEqualTo("order 42 %C3%BC");
            assertThat(signed.header("sdmq-topic")).isEqualTo(topic);
            assertThat(signed.header("webhook-signature").split(" ")).hasSize(2);
            long sentAt = Long.parseLong(signed.header("webhook-timestamp"));
            assertThat(Math.abs(signed.at() / 1_000 - sentAt)).as("timestamp within 5 minutes").isLessThan(300);
            assertThat(verifies(first, signed, signed.body())).isTrue();
            assertThat(verifies(second, signed, signed.body())).isTrue();
            assertThat(verifies(secret(), signed, signed.body())).as("a secret not configured").isFalse();
            byte[] tampered = body.replace("42", "43").getBytes(StandardCharsets.UTF_8);
            assertThat(verifies(first, signed, tampered)).isFalse();
            assertThat(verifies(second, signed, tampered)).isFalse();

            Received plain = receiver.of(plainId).get(0);
            assertThat(plain.header("content-type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(plain.header("sdmq-biz-key")).isNull();
            assertThat(verifies(first, plain, plain.body())).isTrue();
        }
    }

    @Test
    void a_bad_setting_answers_400_naming_its_field_changes_nothing_and_no_reply_shows_a_secret() {
        String topic = topic("settings");
        String first = secret();
        String second = secret();
        String good = "{\"maxAttempts\":4,\"delivery\":{\"type\":\"webhook\",\"url\":\"http://127.0.0.1:9/hook\","
                + "\"secrets\":[\"" + first + "\",\"" + second + "\"],\"timeout\":2000}}";
        Reply stored = put(server, topic, good);
        assertThat(stored.status()).as(stored.body()).isEqualTo(200);
        assertThat(stored.body()).doesNotContain(first, second, "whsec_");
        JsonNode shown = server.get("/topics/" + topic).data().get("settings");
        assertThat(shown.get("delivery").get("secretsSet").asInt()).isEqualTo(2);
        assertThat(shown.get("delivery").has("secrets")).isFalse();
        assertThat(shown.get("delivery").get("concurrency").asInt()).isEqualTo(16);
        assertThat(shown.get("delivery").get("retryOn4xx").asBoolean()).isFalse();

        Function<String, String> delivery = fields -> "{\"delivery\":{\"type\":\"webhook\"," + fields + "}}";
        String other = secret();
        String secrets = "\"secrets\":[\"" + other + "\"]";
        String url = "\"url\":\"http://127.0.0.1:9/hook\",";
        Map<String, String> bad = Map.ofEntries(
                Map.entry("{\"delivery\":{\"type\":\"smtp\"}}", "delivery.type"),
                Map.entry(delivery.apply(secrets), "delivery.url: is required"),
                Map.entry(delivery.apply("\"url\":\"http://10.0.0.1/hook\"," + secrets), "delivery.url: host 10.0.0.1"),
                Map.entry(delivery.apply("\"url\":\"http://127.0.0.1.example.com/\"," + secrets), "delivery.url"),
                Map.entry(delivery.apply("\"url\":\"ftp://127.0.0.1/hook\"," + secrets), "delivery.url"),
                Map.entry(delivery.apply("\"url\":\"http://u:p@127.0.0.1/hook\"," + secrets), "delivery.url"),
                Map.entry(delivery.apply(url + secrets + ",\"timeout\":99"), "delivery.timeout"),
                Map.entry(delivery.apply(url + secrets + ",\"timeout\":60001"), "delivery.timeout"),
                Map.entry(delivery.apply(url + secrets + ",\"concurrency\":257"), "delivery.concurrency"),
                Map.entry(delivery.apply(url + secrets + ",\"retryOn4xx\":\"yes\""), "delivery.retryOn4xx"),
                Map.entry(delivery.apply(url + "\"secrets\":[]"), "delivery.secrets"),
                Map.entry(delivery.apply(url + "\"secrets\":[\"not-a-secret\"]"), "delivery.secrets"),
                Map.entry(delivery.apply(url + "\"secrets\":[\"whsec_c2hvcnQ=\"]"), "delivery.secrets"),
                Map.entry(delivery.apply(url + "\"secrets\":[\"whsec_!!!!\"]"), "delivery.secrets"),
                Map.entry(delivery.apply(url + secrets + ",\"retries\":3"), "delivery.retries: is unknown"));
        bad.forEach((body, field) -> {
            Reply refused = put(server, topic, body);
            assertThat(refused.status()).as(body + " → " + refused.body()).isEqualTo(400);
            assertThat(refused.json().get("message").asString()).as(body).startsWith(field);
            assertThat(refused.body()).doesNotContain(other, "c2hvcnQ", "not-a-secret", "!!!!");
            assertThat(server.get("/topics/" + topic).data().get("settings")).as(body).isEqualTo(shown);
        });
        assertThat(server.get("/topics").body()).doesNotContain(first, second, "whsec_");
    }

    @Test
    void a_consumer_cannot_pop_a_webhook_topic() {
        String topic = topic("nopoll");
        webhook(server, topic, "", "http://127.0.0.1:9/hook", secret(), "");
        Reply refused = server.get("/get/" + topic + "?timeout=0");
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().get("message").asString()).startsWith("topic:");
    }

    @Test
    void a_server_with_no_allowed_hosts_refuses_every_webhook_naming_the_property() {
        try (RunningServer closed = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of())) {
            Reply refused = put(closed, topic("closed"), "{\"delivery\":{\"type\":\"webhook\",\"url\":"
                    + "\"http://127.0.0.1:9/hook\",\"secrets\":[\"" + secret() + "\"]}}");
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.json().get("message").asString()).startsWith("delivery.url:")
                    .contains("sdmq.delivery.webhook.allowed-hosts", "empty");
        }
    }

    /**
     * The Standard Webhooks check, from its specification: one of the v1 signatures is the base64 of
     * HMAC-SHA256(key, id.timestamp.body), the key being the base64-decoded part after whsec_.
     */
    private static boolean verifies(String secret, Received request, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())),
                    "HmacSHA256"));
            mac.update((request.header("webhook-id") + "." + request.header("webhook-timestamp") + ".")
                    .getBytes(StandardCharsets.UTF_8));
            byte[] expected = mac.doFinal(body);
            for (String signature : request.header("webhook-signature").split(" ")) {
                String[] parts = signature.split(",", 2);
                if (parts.length == 2 && parts[0].equals("v1")
                        && MessageDigest.isEqual(Base64.getDecoder().decode(parts[1]), expected)) {
                    return true;
                }
            }
            return false;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
