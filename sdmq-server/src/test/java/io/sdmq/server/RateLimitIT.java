package io.sdmq.server;

import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code sdmq.limits.push-per-second}: per token, per client address on an open server, off by default. */
class RateLimitIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PRODUCER_TOKEN = "producer-0123456789abcdef";
    private static final String PRODUCER_2_TOKEN = "producer-second-0123456789abcdef";
    private static final String ADMIN_TOKEN = "admin-0123456789abcdef";
    private static final String PRODUCER = "Bearer " + PRODUCER_TOKEN;
    private static final String PRODUCER_2 = "Bearer " + PRODUCER_2_TOKEN;
    private static final String ADMIN = "Bearer " + ADMIN_TOKEN;
    private static final String PUSH = "{\"topic\":\"limited\",\"body\":\"x\",\"delay\":600000}";
    private static final int BURST = 20;

    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        server = start(Map.of(
                "sdmq.auth.producer-token", PRODUCER_TOKEN + "," + PRODUCER_2_TOKEN,
                "sdmq.auth.admin-token", ADMIN_TOKEN,
                "sdmq.limits.push-per-second", "5"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_burst_over_the_limit_gets_429_and_pushes_pass_again_after_a_second() throws Exception {
        List<HttpResponse<String>> burst = burst(server, PRODUCER);
        List<HttpResponse<String>> limited = burst.stream().filter(r -> r.statusCode() == 429).toList();
        assertThat(burst).extracting(HttpResponse::statusCode).containsOnly(200, 429);
        assertThat(limited).isNotEmpty().hasSizeLessThanOrEqualTo(BURST - 5);
        JsonNode body = JSON.readTree(limited.get(0).body());
        assertThat(body.get("success").asBoolean()).isFalse();
        assertThat(body.get("code").asInt()).isEqualTo(429);
        assertThat(body.get("message").asString()).contains("at most 5 push requests per second");
        assertThat(limited.get(0).headers().firstValue("Retry-After")).hasValue("1");

        Thread.sleep(1_200);
        for (int i = 0; i < 5; i++) {
            assertThat(server.http().send("POST", "/push", PRODUCER, PUSH).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void each_token_has_its_own_allowance_and_only_pushes_count() throws Exception {
        assertThat(burst(server, ADMIN)).extracting(HttpResponse::statusCode).contains(429);
        assertThat(server.http().send("POST", "/push", PRODUCER_2, PUSH).statusCode()).isEqualTo(200);
        for (int i = 0; i < BURST; i++) {
            assertThat(server.http().send("GET", "/reStoreJob?jobId=1", ADMIN, null).statusCode()).isNotEqualTo(429);
        }
    }

    @Test
    void an_open_server_limits_each_client_address() throws Exception {
        try (RunningServer open = start(Map.of("sdmq.limits.push-per-second", "5"))) {
            assertThat(burst(open, null)).extracting(HttpResponse::statusCode).contains(200, 429);
        }
    }

    @Test
    void by_default_a_burst_is_never_limited() throws Exception {
        try (RunningServer unlimited = start(Map.of())) {
            assertThat(burst(unlimited, null)).extracting(HttpResponse::statusCode).containsOnly(200);
        }
    }

    private static RunningServer start(Map<String, Object> extra) {
        return RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), extra);
    }

    /** {@link #BURST} pushes sent at once. */
    private static List<HttpResponse<String>> burst(RunningServer target, String authorization) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(BURST);
        try {
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                sent.add(pool.submit(() -> target.http().send("POST", "/push", authorization, PUSH)));
            }
            List<HttpResponse<String>> replies = new ArrayList<>();
            for (Future<HttpResponse<String>> reply : sent) {
                replies.add(reply.get());
            }
            return replies;
        } finally {
            pool.shutdown();
        }
    }
}
