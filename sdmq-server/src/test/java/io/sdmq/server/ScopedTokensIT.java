package io.sdmq.server;

import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Named tokens, tokens scoped to topics and the viewer role: every route family against every kind of token, on a
 * topic in the scoped tokens' patterns and one beyond them, beside the legacy token properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScopedTokensIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A topic the scoped tokens' pattern {@code orders.*} takes, and one it does not. */
    private static final String IN = "orders.eu";
    private static final String OUT = "payments";
    private static final String UNKNOWN_ID = "7339155161346838528";
    private static final AtomicInteger KEYS = new AtomicInteger();

    enum Role { PRODUCER, CONSUMER, ADMIN, VIEWER }

    /** A configured token: its secret, its role, and whether it is held to {@code orders.*}. */
    record Token(String name, String secret, Role role, boolean scoped) {
        boolean may(Role needed) {
            return role == Role.ADMIN || role == needed;
        }

        String bearer() {
            return "Bearer " + secret;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final Token PRODUCER = new Token("legacy producer", "producer-0123456789abcdef", Role.PRODUCER, false);
    private static final Token CONSUMER = new Token("legacy consumer", "consumer-0123456789abcdef", Role.CONSUMER, false);
    private static final Token ADMIN = new Token("legacy admin", "admin-0123456789abcdef", Role.ADMIN, false);
    private static final Token ORDERS_PRODUCER =
            new Token("orders-producer", "orders-producer-0123456789abcdef", Role.PRODUCER, true);
    private static final Token ORDERS_CONSUMER =
            new Token("orders-consumer", "orders-consumer-0123456789abcdef", Role.CONSUMER, true);
    private static final Token ORDERS_ADMIN = new Token("orders-admin", "orders-admin-0123456789abcdef", Role.ADMIN, true);
    private static final Token ANY_CONSUMER = new Token("any-consumer", "any-consumer-0123456789abcdef", Role.CONSUMER,
            false);
    private static final Token VIEWER = new Token("dashboard", "dashboard-0123456789abcdef", Role.VIEWER, false);
    private static final Token ORDERS_VIEWER =
            new Token("orders-viewer", "orders-viewer-0123456789abcdef", Role.VIEWER, true);
    private static final List<Token> TOKENS = List.of(PRODUCER, CONSUMER, ADMIN, ORDERS_PRODUCER, ORDERS_CONSUMER,
            ORDERS_ADMIN, ANY_CONSUMER, VIEWER, ORDERS_VIEWER);

    private static WatchedServer watched;
    private static RunningServer server;

    /**
     * One route: method, path and body, where {@code {topic}}, {@code {id}} and {@code {key}} stand for a fresh
     * pending message of the topic under test (its id and bizKey), and the role it needs. {@code topical} is false
     * for the routes that name no topic nor message.
     */
    record Endpoint(String method, String path, String json, Role role, boolean topical) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    static List<Endpoint> endpoints() {
        String push = "{\"topic\":\"{topic}\",\"body\":\"x\",\"delay\":600000}";
        return List.of(
                new Endpoint("POST", "/push", push, Role.PRODUCER, true),
                new Endpoint("POST", "/push/batch", "[" + push + "]", Role.PRODUCER, true),
                new Endpoint("POST", "/compat/sdmq/push", push, Role.PRODUCER, true),
                new Endpoint("POST", "/compat/ouqiang/push",
                        "{\"topic\":\"{topic}\",\"id\":\"new-{key}\",\"delay\":600,\"ttr\":60,\"body\":\"x\"}",
                        Role.PRODUCER, true),
                new Endpoint("POST", "/delete?jobId={id}", null, Role.PRODUCER, true),
                new Endpoint("GET", "/delete?topic={topic}&bizKey={key}", null, Role.PRODUCER, true),
                new Endpoint("POST", "/reschedule?jobId={id}&delay=1000", null, Role.PRODUCER, true),
                new Endpoint("GET", "/compat/sdmq/delete?id={id}", null, Role.PRODUCER, true),
                new Endpoint("POST", "/compat/ouqiang/delete", "{\"id\":\"{key}\"}", Role.PRODUCER, true),
                new Endpoint("GET", "/get/{topic}?timeout=0", null, Role.CONSUMER, true),
                new Endpoint("POST", "/get/{topic}?timeout=0", "[]", Role.CONSUMER, true),
                new Endpoint("POST", "/compat/ouqiang/pop", "{\"topic\":\"{topic}\"}", Role.CONSUMER, true),
                new Endpoint("POST", "/finish?jobId={id}", null, Role.CONSUMER, true),
                new Endpoint("POST", "/finish", "[\"{id}\"]", Role.CONSUMER, true),
                new Endpoint("POST", "/nack?jobId={id}", null, Role.CONSUMER, true),
                new Endpoint("POST", "/touch?jobId={id}", null, Role.CONSUMER, true),
                new Endpoint("POST", "/compat/ouqiang/finish", "{\"id\":\"{key}\"}", Role.CONSUMER, true),
                new Endpoint("POST", "/requeue?jobId={id}", null, Role.ADMIN, true),
                new Endpoint("GET", "/reStoreJob?jobId={id}", null, Role.ADMIN, true),
                new Endpoint("GET", "/compat/sdmq/reStore/{id}", null, Role.ADMIN, true),
                new Endpoint("GET", "/job/{id}", null, Role.VIEWER, true),
                new Endpoint("GET", "/actuator/prometheus", null, Role.VIEWER, false),
                new Endpoint("GET", "/actuator/metrics", null, Role.VIEWER, false),
                new Endpoint("GET", "/actuator/metrics/jvm.threads.live", null, Role.VIEWER, false),
                new Endpoint("GET", "/topics/{topic}/series?minutes=2", null, Role.VIEWER, true),
                new Endpoint("GET", "/instances", null, Role.VIEWER, false),
                new Endpoint("GET", "/reStore/progress", null, Role.VIEWER, false),
                new Endpoint("GET", "/actuator", null, Role.ADMIN, false));
    }

    @BeforeAll
    static void startServer() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("sdmq.auth.producer-token", PRODUCER.secret());
        properties.put("sdmq.auth.consumer-token", CONSUMER.secret());
        properties.put("sdmq.auth.admin-token", ADMIN.secret());
        for (Token t : TOKENS.subList(3, TOKENS.size())) {
            properties.put("sdmq.auth.tokens." + t.name() + ".secret", t.secret());
            properties.put("sdmq.auth.tokens." + t.name() + ".role", t.role().name().toLowerCase());
            if (t.scoped()) {
                properties.put("sdmq.auth.tokens." + t.name() + ".topics", "orders.*, audit");
            }
        }
        properties.put("sdmq.consumer.max-wait", "1s");
        watched = WatchedServer.start(properties);
        server = watched.server();
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void each_token_may_use_a_route_of_its_role_on_its_topics_and_gets_403_naming_the_role_or_the_topic(Endpoint e) {
        for (Token token : TOKENS) {
            for (String topic : e.topical() ? List.of(IN, OUT) : List.of(IN)) {
                HttpResponse<String> reply = call(e, token, topic);
                String what = token + " on " + e + " for " + topic + ": " + reply.body();
                if (!token.may(e.role())) {
                    assertThat(reply.statusCode()).as(what).isEqualTo(403);
                    assertThat(message(reply)).as(what).startsWith("Authorization: this endpoint needs");
                } else if (token.scoped() && e.topical() && topic.equals(OUT)) {
                    assertThat(reply.statusCode()).as(what).isEqualTo(403);
                    assertThat(message(reply)).as(what)
                            .isEqualTo("topic payments: this token may act only on topics matching orders.*, audit");
                } else {
                    assertThat(reply.statusCode()).as(what).isNotIn(401, 403);
                }
            }
        }
    }

    @Test
    void a_viewer_reads_the_instances_and_the_restore_progress_but_cannot_start_a_restore() {
        for (String path : List.of("/instances", "/reStore/progress")) {
            assertThat(server.http().send("GET", path, VIEWER.bearer(), null).statusCode()).as(path).isEqualTo(200);
            HttpResponse<String> producer = server.http().send("GET", path, PRODUCER.bearer(), null);
            assertThat(producer.statusCode()).as(path).isEqualTo(403);
            assertThat(message(producer)).as(path).startsWith("Authorization: this endpoint needs");
        }
        for (String method : List.of("POST", "GET")) {
            for (String path : List.of("/reStore?wait=false", "/reStore")) {
                HttpResponse<String> refused = server.http().send(method, path, VIEWER.bearer(), null);
                assertThat(refused.statusCode()).as(method + " " + path).isEqualTo(403);
                assertThat(message(refused)).as(method + " " + path).contains("admin");
            }
        }
        assertThat(server.http().send("POST", "/reStore/progress", VIEWER.bearer(), null).statusCode())
                .as("the viewer's routes are read with GET only").isEqualTo(403);
    }

    @Test
    void a_scoped_consumer_cannot_finish_nack_or_touch_a_message_of_another_topic_and_it_stays_reserved() {
        long id = pushDue("payments.reserved");
        assertThat(take("payments.reserved", CONSUMER)).isEqualTo(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> status(id).equals("RESERVED"));

        for (String[] call : List.of(new String[] {"/finish?jobId=" + id, null},
                new String[] {"/finish", "[\"" + id + "\"]"}, new String[] {"/nack?jobId=" + id, null},
                new String[] {"/nack?dead=true&jobId=" + id, null}, new String[] {"/touch?jobId=" + id, null},
                new String[] {"/get/" + IN + "?timeout=0", "[\"" + id + "\"]"})) {
            HttpResponse<String> refused = server.http().send("POST", call[0], ORDERS_CONSUMER.bearer(), call[1]);
            assertThat(refused.statusCode()).as(call[0]).isEqualTo(403);
            assertThat(message(refused)).as(call[0]).startsWith("topic payments.reserved: ");
        }
        assertThat(status(id)).isEqualTo("RESERVED");
        assertThat(server.http().send("POST", "/finish?jobId=" + id, ANY_CONSUMER.bearer(), null).statusCode())
                .as("a named token without topics finishes any topic").isEqualTo(200);
    }

    @Test
    void a_scoped_consumer_takes_and_finishes_messages_of_its_topics() {
        long id = pushDue("orders.take");
        assertThat(take("orders.take", ORDERS_CONSUMER)).isEqualTo(id);
        HttpResponse<String> finished = server.http().send("POST", "/get/orders.take?timeout=0",
                ORDERS_CONSUMER.bearer(), "[\"" + id + "\"]");
        assertThat(finished.statusCode()).isEqualTo(200);
        assertThat(json(finished).get("data").get("finished").get(0).get("code").asInt()).isEqualTo(200);
        assertThat(status(id)).isEqualTo("FINISHED");
    }

    @Test
    void a_batch_with_one_message_beyond_the_scope_is_refused_whole_and_nothing_is_stored() {
        StoreState before = watched.settledState();
        String batch = "[" + pushBody(IN + ".a") + "," + pushBody(OUT) + "," + pushBody("audit") + "]";

        HttpResponse<String> refused = server.http().send("POST", "/push/batch", ORDERS_PRODUCER.bearer(), batch);

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(message(refused)).startsWith("topic payments: ");
        assertThat(watched.state()).isEqualTo(before);
        String inScope = "[" + pushBody(IN + ".a") + "," + pushBody("audit") + "]";
        HttpResponse<String> accepted = server.http().send("POST", "/push/batch", ORDERS_PRODUCER.bearer(), inScope);
        assertThat(accepted.statusCode()).isEqualTo(200);
        assertThat(json(accepted).get("data")).hasSize(2);
    }

    @Test
    void a_refused_push_or_delete_changes_nothing() {
        long id = push(OUT, null);
        StoreState before = watched.settledState();
        assertThat(server.http().send("POST", "/push", ORDERS_PRODUCER.bearer(), pushBody(OUT)).statusCode())
                .isEqualTo(403);
        assertThat(server.http().send("POST", "/delete?jobId=" + id, ORDERS_PRODUCER.bearer(), null).statusCode())
                .isEqualTo(403);
        assertThat(server.http().send("POST", "/reschedule?jobId=" + id + "&delay=0", ORDERS_PRODUCER.bearer(), null)
                .statusCode()).isEqualTo(403);
        assertThat(watched.state()).isEqualTo(before);
        assertThat(status(id)).isEqualTo("DELAY");
    }

    @Test
    void a_malformed_topic_still_answers_400_naming_the_field_to_a_scoped_token() {
        HttpResponse<String> push = server.http().send("POST", "/push", ORDERS_PRODUCER.bearer(),
                "{\"topic\":\"bad topic\",\"body\":\"x\"}");
        assertThat(push.statusCode()).isEqualTo(400);
        assertThat(message(push)).startsWith("topic: ");
        HttpResponse<String> get = server.http().send("GET", "/get/x%20y?timeout=0", ORDERS_CONSUMER.bearer(), null);
        assertThat(get.statusCode()).isEqualTo(400);
        assertThat(message(get)).startsWith("topic: ");
    }

    @Test
    void an_unknown_id_answers_404_to_a_scoped_token_as_to_any_other() {
        for (String path : List.of("/finish?jobId=", "/touch?jobId=", "/nack?jobId=")) {
            assertThat(server.http().send("POST", path + UNKNOWN_ID, ORDERS_CONSUMER.bearer(), null).statusCode())
                    .as(path).isEqualTo(404);
        }
        assertThat(server.http().send("GET", "/job/" + UNKNOWN_ID, ORDERS_VIEWER.bearer(), null).statusCode())
                .isEqualTo(404);
    }

    @Test
    void a_whole_restore_needs_a_token_for_every_topic() {
        for (String path : List.of("/reStore", "/compat/sdmq/reStore")) {
            HttpResponse<String> refused = server.http().send("GET", path, ORDERS_ADMIN.bearer(), null);
            assertThat(refused.statusCode()).as(path).isEqualTo(403);
            assertThat(message(refused)).as(path).startsWith("a restore acts on every topic");
            assertThat(server.http().send("GET", path, ADMIN.bearer(), null).statusCode()).as(path).isEqualTo(200);
        }
    }

    @Test
    void a_viewer_reads_and_changes_nothing() {
        long id = push(IN, null);
        StoreState before = watched.settledState();
        JsonNode job = json(server.http().send("GET", "/job/" + id, VIEWER.bearer(), null));
        assertThat(job.get("data").get("topic").asString()).isEqualTo(IN);
        assertThat(server.http().send("GET", "/actuator/prometheus", VIEWER.bearer(), null).body())
                .contains("sdmq_journal_pending");
        for (String[] call : List.of(new String[] {"POST", "/push"}, new String[] {"GET", "/get/" + IN},
                new String[] {"POST", "/finish?jobId=" + id}, new String[] {"POST", "/delete?jobId=" + id},
                new String[] {"POST", "/requeue?jobId=" + id}, new String[] {"GET", "/reStore"},
                new String[] {"POST", "/job/" + id}, new String[] {"PUT", "/topics/" + IN},
                new String[] {"POST", "/topics/" + IN + "/pause"}, new String[] {"POST", "/messages/requeue"},
                new String[] {"GET", "/actuator/info"})) {
            HttpResponse<String> refused = server.http().send(call[0], call[1], VIEWER.bearer(),
                    call[0].equals("GET") ? null : pushBody(IN));
            assertThat(refused.statusCode()).as(call[0] + " " + call[1]).isEqualTo(403);
        }
        assertThat(watched.state()).isEqualTo(before);
        assertThat(status(id)).isEqualTo("DELAY");
    }

    @Test
    void the_viewer_already_reads_the_topic_and_search_routes_other_parts_of_issue_45_add() {
        for (String path : List.of("/topics", "/topics/" + IN, "/topics/" + IN + "/stats", "/messages?topic=" + IN)) {
            assertThat(server.http().send("GET", path, VIEWER.bearer(), null).statusCode()).as(path)
                    .isNotIn(401, 403);
            assertThat(server.http().send("GET", path, PRODUCER.bearer(), null).statusCode()).as(path)
                    .isEqualTo(403);
        }
    }

    @Test
    void a_scoped_token_lists_reads_and_changes_only_the_topics_of_its_scope() {
        push(IN, null);
        push(OUT, null);
        JsonNode listed = json(server.http().send("GET", "/topics", ORDERS_VIEWER.bearer(), null)).path("data");
        assertThat(listed.findValuesAsString("topic")).contains(IN).doesNotContain(OUT);
        for (String path : List.of("/topics/" + OUT, "/topics/" + OUT + "/stats")) {
            HttpResponse<String> refused = server.http().send("GET", path, ORDERS_VIEWER.bearer(), null);
            assertThat(refused.statusCode()).as(path).isEqualTo(403);
            assertThat(message(refused)).as(path).startsWith("topic payments: ");
        }
        assertThat(server.http().send("GET", "/topics/" + IN + "/stats", ORDERS_VIEWER.bearer(), null).statusCode())
                .isEqualTo(200);
        HttpResponse<String> pause = server.http().send("POST", "/topics/" + OUT + "/pause", ORDERS_ADMIN.bearer(),
                null);
        assertThat(pause.statusCode()).isEqualTo(403);
        assertThat(json(server.http().send("GET", "/topics/" + OUT, ADMIN.bearer(), null))
                .path("data").path("settings").isNull()).as("nothing stored for the refused pause").isTrue();
    }

    @Test
    void a_scoped_token_searches_and_acts_in_bulk_only_on_a_topic_of_its_scope_that_it_names() {
        long out = push(OUT, null);
        assertThat(server.http().send("GET", "/messages?topic=" + IN, ORDERS_VIEWER.bearer(), null).statusCode())
                .isEqualTo(200);
        for (String path : List.of("/messages", "/messages?topic=" + OUT)) {
            assertThat(server.http().send("GET", path, ORDERS_VIEWER.bearer(), null).statusCode()).as(path)
                    .isEqualTo(403);
        }
        HttpResponse<String> unnamed = server.http().send("POST", "/messages/delete", ORDERS_ADMIN.bearer(),
                "{\"all\":true}");
        assertThat(unnamed.statusCode()).isEqualTo(403);
        assertThat(message(unnamed)).startsWith("a delete without a topic acts on every topic");
        assertThat(server.http().send("POST", "/messages/delete", ORDERS_ADMIN.bearer(),
                "{\"topic\":\"" + OUT + "\"}").statusCode()).isEqualTo(403);
        assertThat(server.http().send("POST", "/topics/" + OUT + "/purge", ORDERS_ADMIN.bearer(), null).statusCode())
                .isEqualTo(403);
        assertThat(status(out)).as("nothing deleted").isIn("WAIT_PUT", "DELAY");
    }

    @Test
    void a_scoped_viewer_reads_a_message_of_its_topics_only() {
        long in = push(IN, null);
        long out = push(OUT, null);
        assertThat(server.http().send("GET", "/job/" + in, ORDERS_VIEWER.bearer(), null).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = server.http().send("GET", "/job/" + out, ORDERS_VIEWER.bearer(), null);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(message(refused)).startsWith("topic payments: ");
    }

    @Test
    void an_ouqiang_client_beyond_its_scope_gets_a_real_403() {
        String key = "oq-" + KEYS.incrementAndGet();
        push(OUT, key);
        for (String[] call : List.of(new String[] {"/compat/ouqiang/push",
                        "{\"topic\":\"payments\",\"id\":\"oq-new\",\"delay\":600,\"ttr\":60,\"body\":\"x\"}"},
                new String[] {"/compat/ouqiang/delete", "{\"id\":\"" + key + "\"}"})) {
            HttpResponse<String> refused = server.http().send("POST", call[0], ORDERS_PRODUCER.bearer(), call[1]);
            assertThat(refused.statusCode()).as(call[0]).isEqualTo(403);
            assertThat(json(refused).get("code").asInt()).as(call[0]).isEqualTo(403);
            assertThat(message(refused)).as(call[0]).startsWith("topic payments: ");
        }
    }

    @Test
    void secrets_of_named_tokens_never_reach_the_log_and_the_start_counts_them_by_role(CapturedOutput output) {
        for (Token token : TOKENS) {
            call(endpoints().get(0), token, OUT);
        }
        assertThat(output.getAll()).contains("answering 403");
        for (Token token : TOKENS) {
            assertThat(output.getAll()).doesNotContain(token.secret());
        }
    }

    @Test
    void a_bad_named_token_stops_the_start_naming_the_property() {
        assertThatThrownBy(() -> RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.auth.tokens.ops.secret", "ops-0123456789abcdef",
                        "sdmq.auth.tokens.ops.role", "operator")))
                .rootCause().hasMessageContaining("sdmq.auth.tokens.ops.role: must be one of producer, consumer, "
                        + "admin, viewer, not \"operator\"");
        assertThatThrownBy(() -> RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.auth.tokens.ops.secret", "ops-0123456789abcdef",
                        "sdmq.auth.tokens.ops.role", "consumer", "sdmq.auth.tokens.ops.topics", "orders/*")))
                .rootCause().hasMessageContaining("sdmq.auth.tokens.ops.topics: \"orders/*\" must be");
    }

    /** Calls {@code e} as {@code token}, on a fresh pending message of {@code topic} where it names one. */
    private static HttpResponse<String> call(Endpoint e, Token token, String topic) {
        String key = "k-" + KEYS.incrementAndGet();
        String id = e.path().contains("{id}") || (e.json() != null && e.json().contains("{id}"))
                || e.path().contains("{key}") || (e.json() != null && e.json().contains("\"{key}\""))
                ? Long.toString(push(topic, key)) : UNKNOWN_ID;
        String path = e.path().replace("{topic}", topic).replace("{id}", id).replace("{key}", key);
        String body = e.json() == null ? null : e.json().replace("{topic}", topic).replace("{id}", id)
                .replace("{key}", key);
        return server.http().send(e.method(), path, token.bearer(), body);
    }

    /** A message of {@code topic}, due in ten minutes, pushed with the legacy admin token; its id. */
    private static long push(String topic, String bizKey) {
        String body = bizKey == null ? pushBody(topic)
                : "{\"topic\":\"" + topic + "\",\"bizKey\":\"" + bizKey + "\",\"body\":\"x\",\"delay\":600000}";
        HttpResponse<String> reply = server.http().send("POST", "/push", ADMIN.bearer(), body);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return Long.parseLong(json(reply).get("data").asString());
    }

    /** A message of {@code topic}, due now; its id. */
    private static long pushDue(String topic) {
        HttpResponse<String> reply = server.http().send("POST", "/push", ADMIN.bearer(),
                "{\"topic\":\"" + topic + "\",\"body\":\"x\",\"delay\":0}");
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return Long.parseLong(json(reply).get("data").asString());
    }

    /** The id of the first message a {@code /get} of {@code topic} hands {@code token}, once one is due. */
    private static long take(String topic, Token token) {
        AtomicReference<JsonNode> got = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            got.set(json(server.http().send("GET", "/get/" + topic + "?timeout=1000", token.bearer(), null))
                    .get("data"));
            return !got.get().isEmpty();
        });
        return Long.parseLong(got.get().get(0).get("id").asString());
    }

    private static String pushBody(String topic) {
        return "{\"topic\":\"" + topic + "\",\"body\":\"x\",\"delay\":600000}";
    }

    private static String status(long id) {
        return json(server.http().send("GET", "/job/" + id, ADMIN.bearer(), null)).get("data").get("status")
                .asString();
    }

    private static String message(HttpResponse<String> reply) {
        return json(reply).get("message").asString();
    }

    private static JsonNode json(HttpResponse<String> reply) {
        return JSON.readTree(reply.body());
    }
}
