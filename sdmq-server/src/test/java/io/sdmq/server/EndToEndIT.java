package io.sdmq.server;

import io.sdmq.common.Buckets;
import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The main path over HTTP against a real server on real Redis and MariaDB. */
class EndToEndIT {
    private static TestDatabase db;
    private static DataSource dataSource;
    private static RunningServer server;
    private static String keyPrefix;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        dataSource = db.dataSource();
        // a cold window of 2 s, so messages pushed more than 2 s ahead wait in MySQL and are warmed into Redis 1 s
        // before they are due
        keyPrefix = TestServices.freshKeyPrefix();
        server = RunningServer.start(db, TestServices.redisUrl(), keyPrefix, Map.of("sdmq.scheduler.cold-after", "2s"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_thousand_messages_are_each_delivered_once_none_early_and_deleted_ones_never() throws Exception {
        String topic = "e2e-" + ThreadLocalRandom.current().nextInt(1_000_000);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (Deliveries deliveries = new Deliveries()) {
            for (int c = 0; c < 4; c++) {
                deliveries.consume(server, topic);
            }
            Set<String> pushed = ConcurrentHashMap.newKeySet();
            List<Future<?>> pushes = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                boolean cancel = i % 10 == 0;
                long delay = cancel ? 2_000 + i : ThreadLocalRandom.current().nextLong(0, 3_000);
                pushes.add(pool.submit(() -> {
                    String id = pushOk(topic, delay, "{\"n\":" + delay + "}");
                    if (cancel) {
                        assertThat(server.post("/delete?jobId=" + id, "").status()).isEqualTo(200);
                    } else {
                        pushed.add(id);
                    }
                }));
            }
            for (Future<?> push : pushes) {
                push.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            await().atMost(Duration.ofSeconds(30)).until(() -> deliveries.ids().containsAll(pushed));
            Thread.sleep(1_500);
            deliveries.stopAndCheckFinishes();
            deliveries.printLateness();

            assertThat(deliveries.ids()).isEqualTo(pushed);
            assertThat(deliveries.counts().values()).allMatch(n -> n == 1);
            assertThat(deliveries.early()).isEmpty();
            assertThat(statusCounts(topic)).isEqualTo(Map.of("FINISHED", 900, "DELETED", 100));
            String anyId = pushed.iterator().next();
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(MessageHistory.statuses(dataSource, anyId))
                    .containsExactly("WAIT_PUT", "DELAY", "READY", "RESERVED", "FINISHED"));
        }
    }

    @Test
    void an_unfinished_message_comes_back_after_its_ttr() {
        String topic = "ttr-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String id = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"x\",\"delay\":0,\"ttr\":1000}")
                .data().asString();

        JsonNode first = server.get("/get/" + topic + "?timeout=5000").data().get(0);
        long firstAt = System.currentTimeMillis();
        assertThat(first.get("id").asString()).isEqualTo(id);
        assertThat(first.get("attempts").asInt()).isEqualTo(1);

        JsonNode again = server.get("/get/" + topic + "?timeout=10000").data().get(0);
        assertThat(System.currentTimeMillis() - firstAt).isGreaterThanOrEqualTo(900);
        assertThat(again.get("id").asString()).isEqualTo(id);
        assertThat(again.get("attempts").asInt()).isEqualTo(2);
        assertThat(server.postForm("/finish?jobId=" + id).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(MessageHistory.statuses(dataSource, id))
                .containsExactly("WAIT_PUT", "DELAY", "READY", "RESERVED", "DELAY", "READY", "RESERVED", "FINISHED"));
    }

    @Test
    void a_parked_get_is_answered_when_its_message_falls_due_and_empty_at_its_timeout() throws Exception {
        String topic = "park-" + ThreadLocalRandom.current().nextInt(1_000_000);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            // both gets are parked (nothing is ready when they come): one is woken after 300 ms, the other after 2.5 s,
            // from the cold window in MySQL
            String soonId = server.post("/push", "{\"topic\":\"" + topic + "-soon\",\"body\":\"s\",\"delay\":300}")
                    .data().asString();
            Future<Reply> soon = pool.submit(() -> server.get("/get/" + topic + "-soon?timeout=5000"));
            String lateId = server.post("/push", "{\"topic\":\"" + topic + "-late\",\"body\":\"l\",\"delay\":2500}")
                    .data().asString();
            Future<Reply> late = pool.submit(() -> server.get("/get/" + topic + "-late?timeout=5000"));

            Reply soonReply = soon.get(10, TimeUnit.SECONDS);
            Reply lateReply = late.get(10, TimeUnit.SECONDS);
            assertThat(soonReply.status()).isEqualTo(200);
            assertThat(soonReply.data().get(0).get("id").asString()).isEqualTo(soonId);
            assertThat(lateReply.status()).isEqualTo(200);
            assertThat(lateReply.data().get(0).get("id").asString()).isEqualTo(lateId);
            // nothing comes: empty at the timeout, short or long
            assertThat(server.get("/get/" + topic + "-none?timeout=200").data()).isEmpty();
            assertThat(server.get("/get/" + topic + "-none?timeout=1200").data()).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void replies_carry_the_envelope_and_real_status_codes() {
        Reply pushed = server.post("/push",
                "{\"topic\":\"api\",\"bizKey\":\"order-1\",\"body\":\"b\",\"delay\":60000}");
        assertThat(pushed.status()).isEqualTo(200);
        assertThat(pushed.json().get("success").asBoolean()).isTrue();
        assertThat(pushed.json().get("code").asInt()).isEqualTo(200);
        assertThat(pushed.data().isString()).isTrue();
        String id = pushed.data().asString();

        Reply duplicate = server.post("/push", "{\"topic\":\"api\",\"bizKey\":\"order-1\",\"body\":\"c\",\"delay\":1}");
        assertThat(duplicate.data().asString()).isEqualTo(id);
        assertThat(duplicate.json().get("message").asString()).isEqualTo("duplicate");

        Reply bad = server.post("/push", "{\"topic\":\"a b\",\"body\":\"b\",\"delay\":0}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("success").asBoolean()).isFalse();
        assertThat(bad.json().get("code").asInt()).isEqualTo(400);
        assertThat(bad.json().get("message").asString()).startsWith("topic:");

        assertThat(server.post("/push", "{\"topic\":\"api\",\"body\":\"b\"}").json().get("message").asString())
                .startsWith("delay:");
        assertThat(server.post("/push", "{not json").status()).isEqualTo(400);
        assertThat(server.postForm("/finish?jobId=123").status()).isEqualTo(404);
        assertThat(server.postForm("/finish?jobId=" + id).status()).isEqualTo(409);
        assertThat(server.postForm("/finish?jobId=abc").json().get("message").asString()).startsWith("jobId:");
        assertThat(server.get("/get/a%20b?timeout=0").status()).isEqualTo(400);
        assertThat(server.get("/get/api?timeout=0&count=0").json().get("message").asString()).startsWith("count:");
        assertThat(server.get("/delete?jobId=" + id).status()).isEqualTo(200);
        assertThat(server.get("/delete?jobId=" + id).status()).isEqualTo(409);
        assertThat(server.get("/delete?id=77").status()).isEqualTo(404);
    }

    @Test
    void replies_go_out_whole_with_their_length_not_in_chunks() throws Exception {
        String topic = "whole-" + ThreadLocalRandom.current().nextInt(1_000_000);
        HttpApi http = server.http();
        String push = "{\"topic\":\"" + topic + "\",\"body\":\"w\",\"delay\":0}";
        HttpResponse<String> pushed = http.send("POST", "/push", null, push);
        String id = data(pushed).asString();
        // one answered in its own call (the message is ready), one parked and answered by an asynchronous re-dispatch
        HttpResponse<String> got = http.send("GET", "/get/" + topic + "?timeout=5000", null, null);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<HttpResponse<String>> parked = pool.submit(() ->
                    http.send("GET", "/get/" + topic + "?timeout=10000", null, null));
            Thread.sleep(1_500);
            HttpResponse<String> late = http.send("POST", "/push", null, push);
            HttpResponse<String> woken = parked.get(10, TimeUnit.SECONDS);
            assertThat(data(woken).get(0).get("id").asString())
                    .isEqualTo(data(late).asString());

            for (HttpResponse<String> reply : List.of(pushed, got, woken,
                    http.send("POST", "/finish", null, "[\"" + id + "\"]"),
                    http.send("GET", "/get/" + topic + "?timeout=0", null, null),
                    http.send("POST", "/push", null, "{\"topic\":\"a b\",\"body\":\"w\",\"delay\":0}"),
                    http.send("GET", "/no-such-endpoint", null, null))) {
                assertThat(reply.headers().firstValue("Transfer-Encoding")).as(reply.uri().toString()).isEmpty();
                assertThat(reply.headers().firstValueAsLong("Content-Length")).as(reply.uri().toString())
                        .hasValue(reply.body().getBytes(StandardCharsets.UTF_8).length);
            }
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(data(got).get(0).get("id").asString()).isEqualTo(id);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_message_with_deliver_at_is_delivered_then() {
        long at = System.currentTimeMillis() + 700;
        String topic = "at-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String id = pushOkAt(topic, at, "x");

        JsonNode got = server.get("/get/" + topic + "?timeout=5000").data().get(0);

        assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(at);
        assertThat(got.get("id").asString()).isEqualTo(id);
        assertThat(got.get("dueTime").asLong()).isEqualTo(at);
    }

    @Test
    void a_message_pushed_beyond_the_cold_window_waits_in_redis_as_its_id_alone_and_arrives_when_due() {
        long due = System.currentTimeMillis() + 4_000;
        String topic = "cold-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String id = pushOkAt(topic, due, "far");
        StringRedisTemplate redis = server.bean(StringRedisTemplate.class);
        String bucket = keyPrefix + ":{b" + Buckets.of(Long.parseLong(id), 16) + "}";

        assertThat(redis.opsForZSet().score(bucket + ":cold", id)).isEqualTo((double) due);
        assertThat(redis.opsForHash().hasKey(bucket + ":meta", id)).isFalse();

        JsonNode got = server.get("/get/" + topic + "?timeout=10000").data().get(0);
        assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(due);
        assertThat(got.get("id").asString()).isEqualTo(id);
        assertThat(got.get("body").asString()).isEqualTo("far");
        assertThat(redis.opsForZSet().score(bucket + ":cold", id)).isNull();
    }

    @Test
    void redis_is_reached_through_a_pool_of_classic_jedis_connections() {
        JedisConnectionFactory factory = server.bean(JedisConnectionFactory.class);

        // unified mode throws and catches an exception after every Redis call (JedisConnections)
        assertThat(factory.isUseUnifiedJedis()).isFalse();
        assertThat(factory.getUsePool()).isTrue();
        assertThat(factory.getPoolConfig().getMaxTotal()).isEqualTo(64);
        assertThat(factory.getPoolConfig().getMaxIdle()).isEqualTo(64);
    }

    @Test
    void health_metrics_and_api_docs_answer() {
        Reply health = server.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");
        assertThat(health.json().get("components").get("scheduler").get("status").asString()).isEqualTo("UP");
        assertThat(health.json().get("components").get("redis").get("status").asString()).isEqualTo("UP");
        assertThat(health.json().get("components").get("db").get("status").asString()).isEqualTo("UP");
        assertThat(server.get("/actuator/prometheus").body()).contains("jvm_memory_used_bytes", "sdmq_journal_pending");
        assertThat(server.get("/actuator/metrics/sdmq.journal.pending").json().get("measurements").get(0)
                .get("value").asDouble()).isGreaterThanOrEqualTo(0);
        assertThat(server.get("/v3/api-docs").body()).contains("/push", "/get/{topic}");
    }

    private static JsonNode data(HttpResponse<String> reply) {
        return new Reply(reply.statusCode(), reply.body()).data();
    }

    private static String pushOk(String topic, long delay, String body) {
        return pushOk("{\"topic\":\"" + topic + "\",\"delay\":" + delay + ",\"body\":" + JsonQuote.of(body) + "}");
    }

    private static String pushOkAt(String topic, long deliverAt, String body) {
        return pushOk("{\"topic\":\"" + topic + "\",\"deliverAt\":" + deliverAt + ",\"body\":" + JsonQuote.of(body)
                + "}");
    }

    private static String pushOk(String json) {
        Reply reply = server.post("/push", json);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static Map<String, Integer> statusCounts(String topic) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT status, COUNT(*) FROM sdmq_message WHERE topic = ? GROUP BY status")) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return counts;
    }
}
