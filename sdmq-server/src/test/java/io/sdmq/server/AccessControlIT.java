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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint against every kind of caller: none, a wrong token, a token of the wrong role, the right role. */
@ExtendWith(OutputCaptureExtension.class)
class AccessControlIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PRODUCER = "producer-0123456789abcdef";
    private static final String PRODUCER_2 = "producer-second-0123456789abcdef";
    private static final String CONSUMER = "consumer-0123456789abcdef";
    private static final String ADMIN = "admin-0123456789abcdef";
    private static final String WRONG = "not-a-token-0123456789abcdef";
    private static final String PUSH = "{\"topic\":\"acl\",\"body\":\"x\",\"delay\":600000}";
    private static final String OUQIANG_PUSH =
            "{\"topic\":\"acl\",\"id\":\"acl-1\",\"delay\":600,\"ttr\":60,\"body\":\"x\"}";
    /** Pops of the compatibility route wait this long, not the 60 s default, for a topic with nothing due. */
    private static final String MAX_WAIT = "1s";

    private static RunningServer server;

    /** One endpoint: how to call it, the role it needs, and a token of another role. */
    record Endpoint(String method, String path, String json, String rightToken, String wrongRoleToken) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    static List<Endpoint> endpoints() {
        return List.of(
                new Endpoint("POST", "/push", PUSH, PRODUCER, CONSUMER),
                new Endpoint("POST", "/push/batch", "[" + PUSH + "]", PRODUCER, CONSUMER),
                new Endpoint("POST", "/delete?jobId=1", null, PRODUCER, CONSUMER),
                new Endpoint("GET", "/delete?jobId=1", null, PRODUCER, CONSUMER),
                new Endpoint("POST", "/reschedule?jobId=1&delay=1000", null, PRODUCER, CONSUMER),
                new Endpoint("GET", "/get/acl?timeout=0", null, CONSUMER, PRODUCER),
                new Endpoint("POST", "/finish?jobId=1", null, CONSUMER, PRODUCER),
                new Endpoint("POST", "/nack?jobId=1", null, CONSUMER, PRODUCER),
                new Endpoint("POST", "/touch?jobId=1", null, CONSUMER, PRODUCER),
                new Endpoint("POST", "/reStore", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/reStore", null, ADMIN, CONSUMER),
                new Endpoint("POST", "/reStoreJob?jobId=1", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/reStoreJob?jobId=1", null, ADMIN, CONSUMER),
                new Endpoint("POST", "/requeue?jobId=1", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/job/1", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/topics/t1/stats", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/topics/t1/series?minutes=2", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/instances", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/reStore/progress", null, ADMIN, PRODUCER),
                new Endpoint("POST", "/reStore?wait=false", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/topics", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/topics/acl", null, ADMIN, PRODUCER),
                new Endpoint("PUT", "/topics/acl", "{\"priority\":1}", ADMIN, PRODUCER),
                new Endpoint("DELETE", "/topics/acl", null, ADMIN, CONSUMER),
                new Endpoint("POST", "/topics/acl/pause", null, ADMIN, CONSUMER),
                new Endpoint("POST", "/topics/acl/resume", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/messages?topic=acl", null, ADMIN, PRODUCER),
                new Endpoint("POST", "/messages/run-now", "{\"ids\":[\"1\"]}", ADMIN, PRODUCER),
                new Endpoint("POST", "/messages/requeue", "{\"ids\":[\"1\"]}", ADMIN, CONSUMER),
                new Endpoint("POST", "/messages/delete", "{\"ids\":[\"1\"]}", ADMIN, PRODUCER),
                new Endpoint("POST", "/topics/acl-none/purge", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/actuator", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/actuator/prometheus", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/actuator/metrics", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/actuator/info", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/no-such-endpoint", null, ADMIN, PRODUCER),
                new Endpoint("POST", "/compat/ouqiang/push", OUQIANG_PUSH, PRODUCER, CONSUMER),
                new Endpoint("POST", "/compat/ouqiang/delete", "{\"id\":\"acl-unknown\"}", PRODUCER, CONSUMER),
                new Endpoint("POST", "/compat/ouqiang/pop", "{\"topic\":\"acl\"}", CONSUMER, PRODUCER),
                new Endpoint("POST", "/compat/ouqiang/finish", "{\"id\":\"acl-unknown\"}", CONSUMER, PRODUCER),
                new Endpoint("POST", "/compat/sdmq/push", PUSH, PRODUCER, CONSUMER),
                new Endpoint("GET", "/compat/sdmq/delete?id=1", null, PRODUCER, CONSUMER),
                new Endpoint("POST", "/compat/sdmq/delete?jobId=1", null, PRODUCER, CONSUMER),
                new Endpoint("GET", "/compat/sdmq/reStore", null, ADMIN, PRODUCER),
                new Endpoint("GET", "/compat/sdmq/reStore/1", null, ADMIN, CONSUMER),
                new Endpoint("GET", "/compat/sdmq/reStoreJob?jobId=1", null, ADMIN, PRODUCER));
    }

    static List<String> openPaths() {
        return List.of("/actuator/health", "/actuator/health/liveness", "/v3/api-docs", "/swagger-ui.html",
                "/swagger-ui/index.html");
    }

    @BeforeAll
    static void startServer() {
        server = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of(
                        "sdmq.auth.producer-token", PRODUCER + ", " + PRODUCER_2,
                        "sdmq.auth.consumer-token", CONSUMER,
                        "sdmq.auth.admin-token", ADMIN,
                        "sdmq.consumer.max-wait", MAX_WAIT));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void each_endpoint_answers_401_without_a_valid_token_403_for_another_role_and_serves_its_own(Endpoint e) {
        HttpResponse<String> none = call(e, null);
        assertUnauthorized(none);
        assertUnauthorized(call(e, WRONG));
        assertThat(call(e, e.wrongRoleToken()).statusCode()).isEqualTo(403);
        assertThat(call(e, e.rightToken()).statusCode()).isNotIn(401, 403);
        assertThat(call(e, ADMIN).statusCode()).isNotIn(401, 403);
    }

    @Test
    void a_403_says_which_role_the_endpoint_needs() {
        JsonNode producerOnly = json(call(endpoints().get(0), CONSUMER));
        assertThat(producerOnly.get("success").asBoolean()).isFalse();
        assertThat(producerOnly.get("code").asInt()).isEqualTo(403);
        assertThat(producerOnly.get("message").asString()).contains("producer");
        JsonNode adminOnly = json(server.http().send("POST", "/reStore", bearer(PRODUCER), null));
        assertThat(adminOnly.get("message").asString()).contains("admin");
    }

    @Test
    void health_and_the_api_documentation_are_open_to_everyone() {
        for (String path : openPaths()) {
            assertThat(server.http().send("GET", path, null, null).statusCode()).as(path).isNotIn(401, 403);
            assertThat(server.http().send("GET", path, bearer(WRONG), null).statusCode()).as(path).isNotIn(401, 403);
        }
        assertThat(server.http().send("GET", "/actuator/health", null, null).statusCode()).isEqualTo(200);
    }

    @Test
    void every_token_of_a_comma_list_is_accepted() {
        assertThat(server.http().send("POST", "/push", bearer(PRODUCER_2), PUSH).statusCode()).isEqualTo(200);
        assertThat(server.http().send("POST", "/push", bearer(PRODUCER), PUSH).statusCode()).isEqualTo(200);
    }

    @Test
    void the_bearer_scheme_is_case_insensitive_and_other_schemes_are_refused() {
        HttpResponse<String> lower = server.http().send("GET", "/get/acl?timeout=0", "bearer " + CONSUMER, null);
        assertThat(lower.statusCode()).isEqualTo(200);
        assertUnauthorized(server.http().send("GET", "/get/acl?timeout=0", "Basic " + CONSUMER, null));
        assertUnauthorized(server.http().send("GET", "/get/acl?timeout=0", CONSUMER, null));
    }

    @Test
    void path_tricks_do_not_reach_an_admin_endpoint_without_the_admin_token() {
        for (String path : List.of("/actuator/health/../prometheus", "/actuator/health/%2e%2e/prometheus",
                "//reStore", "/reStore;x=1", "/push/../reStore", "/get/acl/../../reStore")) {
            assertThat(server.http().send("GET", path, null, null).statusCode()).as(path).isIn(400, 401, 404);
            assertThat(server.http().send("GET", path, bearer(PRODUCER), null).statusCode()).as(path)
                    .isIn(400, 403, 404);
        }
    }

    @Test
    void tokens_never_reach_the_log(CapturedOutput output) {
        call(endpoints().get(0), WRONG);
        call(endpoints().get(0), CONSUMER);
        call(endpoints().get(0), PRODUCER);
        assertThat(output.getAll()).contains("answering 401", "answering 403")
                .doesNotContain(WRONG, PRODUCER, PRODUCER_2, CONSUMER, ADMIN);
    }

    @Test
    void a_server_without_tokens_lets_everything_through_and_warns_at_start(CapturedOutput output) {
        try (RunningServer open = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.consumer.max-wait", MAX_WAIT))) {
            assertThat(output.getAll()).contains("WARN").contains("sdmq is OPEN");
            for (Endpoint e : endpoints()) {
                assertThat(open.http().send(e.method(), e.path(), null, e.json()).statusCode()).as(e.toString())
                        .isNotIn(401, 403);
            }
            assertThat(open.http().send("POST", "/push", null, PUSH).statusCode()).isEqualTo(200);
        }
    }

    private static HttpResponse<String> call(Endpoint e, String token) {
        return server.http().send(e.method(), e.path(), token == null ? null : bearer(token), e.json());
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    private static void assertUnauthorized(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        JsonNode body = json(response);
        assertThat(body.get("success").asBoolean()).isFalse();
        assertThat(body.get("code").asInt()).isEqualTo(401);
        assertThat(body.get("message").asString()).isEqualTo("Authorization: a valid bearer token is required");
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
