package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Retry policy, idempotency and the producer/consumer extras over HTTP, each logged in sdmq_message_log. */
class PolicyIT {
    private static TestDatabase db;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        server = RunningServer.start(db, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("sdmq.consumer.max-waiting-per-topic", "3"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_message_never_finished_is_delivered_max_attempts_times_with_its_backoff_then_dead_and_requeue_revives_it() {
        String topic = topic("retry");
        String id = push("{\"topic\":\"" + topic + "\",\"body\":\"r\",\"delay\":0,\"ttr\":1000,\"maxAttempts\":3,"
                + "\"retryDelays\":[300,600]}");
        // a pop happens after its /get was sent and before its reply arrived, so the reply to delivery k+1 comes at
        // least TTR + backoff after the request of delivery k was sent (reply times alone differ by the replies'
        // own latencies, a millisecond either way)
        List<Long> sent = new ArrayList<>();
        List<Long> received = new ArrayList<>();
        for (int attempt = 1; attempt <= 3; attempt++) {
            sent.add(System.currentTimeMillis());
            JsonNode m = server.get("/get/" + topic + "?timeout=10000").data().get(0);
            received.add(System.currentTimeMillis());
            assertThat(m.get("attempts").asInt()).isEqualTo(attempt);
        }
        assertThat(received.get(1) - sent.get(0)).isGreaterThanOrEqualTo(1_300);
        assertThat(received.get(2) - sent.get(1)).isGreaterThanOrEqualTo(1_600);
        assertThat(server.get("/get/" + topic + "?timeout=3000").data()).isEmpty();

        JsonNode job = server.get("/job/" + id).data();
        assertThat(job.get("status").asString()).isEqualTo("DEAD");
        assertThat(steps(job)).containsSubsequence("READY>RESERVED", "RESERVED>DELAY", "READY>RESERVED",
                "RESERVED>DELAY", "READY>RESERVED", "RESERVED>DEAD");

        assertThat(server.postForm("/requeue?jobId=" + id).status()).isEqualTo(200);
        JsonNode revived = server.get("/get/" + topic + "?timeout=5000").data().get(0);
        assertThat(revived.get("id").asString()).isEqualTo(id);
        assertThat(revived.get("attempts").asInt()).isEqualTo(1);
        assertThat(server.postForm("/finish?jobId=" + id).status()).isEqualTo(200);
        assertThat(server.postForm("/requeue?jobId=" + id).status()).isEqualTo(409);
    }

    @Test
    void concurrent_duplicate_pushes_of_one_business_key_yield_one_id_and_one_row() throws Exception {
        String topic = topic("dup");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reply>> replies = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            replies.add(pool.submit(() -> {
                start.await();
                return server.post("/push", "{\"topic\":\"" + topic + "\",\"bizKey\":\"order-1\",\"body\":\"x\","
                        + "\"delay\":60000}");
            }));
        }
        start.countDown();
        Set<String> ids = new HashSet<>();
        int duplicates = 0;
        for (Future<Reply> reply : replies) {
            Reply r = reply.get(30, TimeUnit.SECONDS);
            assertThat(r.status()).isEqualTo(200);
            ids.add(r.data().asString());
            duplicates += "duplicate".equals(r.json().get("message").asString()) ? 1 : 0;
        }
        pool.shutdown();
        assertThat(ids).hasSize(1);
        assertThat(duplicates).isEqualTo(7);
        assertThat(count("SELECT COUNT(*) FROM sdmq_message WHERE topic = ? AND biz_key = 'order-1'", topic)).isOne();
    }

    @Test
    void nack_touch_and_batch_finish_work_on_reservations() {
        String topic = topic("nack");
        String id = push("{\"topic\":\"" + topic + "\",\"body\":\"n\",\"delay\":0,\"ttr\":1000}");
        assertThat(server.get("/get/" + topic + "?timeout=5000").data()).hasSize(1);
        long nackedAt = System.currentTimeMillis();
        assertThat(server.postForm("/nack?jobId=" + id + "&delay=500").status()).isEqualTo(200);
        JsonNode again = server.get("/get/" + topic + "?timeout=5000").data().get(0);
        assertThat(System.currentTimeMillis() - nackedAt).isGreaterThanOrEqualTo(450);
        assertThat(again.get("attempts").asInt()).isEqualTo(2);

        long touchedAt = System.currentTimeMillis();
        assertThat(server.postForm("/touch?jobId=" + id).data().asLong()).isGreaterThanOrEqualTo(touchedAt + 1_000);
        Reply finished = server.post("/finish", "[\"" + id + "\",\"123\"]");
        assertThat(finished.data().get(0).get("code").asInt()).isEqualTo(200);
        assertThat(finished.data().get(1).get("code").asInt()).isEqualTo(404);
        // the finish is committed before it answers; the touch and the redelivery are journaled in the background
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(steps(server.get("/job/" + id).data()))
                .contains("RESERVED>DELAY", "RESERVED>RESERVED", "RESERVED>FINISHED"));
    }

    @Test
    void a_nack_as_dead_makes_a_message_with_attempts_left_dead_at_once() {
        String topic = topic("dead");
        String id = push("{\"topic\":\"" + topic + "\",\"body\":\"d\",\"delay\":0,\"maxAttempts\":5}");
        assertThat(server.get("/get/" + topic + "?timeout=5000").data()).hasSize(1);

        assertThat(server.postForm("/nack?jobId=" + id + "&dead=true").status()).isEqualTo(200);

        JsonNode job = server.get("/job/" + id).data();
        assertThat(job.get("status").asString()).isEqualTo("DEAD");
        assertThat(job.get("attempts").asInt()).isEqualTo(1);
        assertThat(server.get("/get/" + topic + "?timeout=1000").data()).isEmpty();
        assertThat(server.postForm("/nack?jobId=" + id + "&dead=true").status()).isEqualTo(409);
    }

    @Test
    void reschedule_replace_and_delete_by_key_change_pending_messages() {
        String topic = topic("move");
        String moved = push("{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":600000}");
        assertThat(server.postForm("/reschedule?jobId=" + moved + "&delay=200").status()).isEqualTo(200);
        String debounced = push("{\"topic\":\"" + topic + "\",\"bizKey\":\"k\",\"body\":\"old\",\"delay\":600000}");
        Reply replaced = server.post("/push", "{\"topic\":\"" + topic + "\",\"bizKey\":\"k\",\"body\":\"new\","
                + "\"delay\":300,\"onDuplicate\":\"replace\"}");
        assertThat(replaced.data().asString()).isEqualTo(debounced);
        assertThat(replaced.json().get("message").asString()).isEqualTo("replaced");
        String cancelled = push("{\"topic\":\"" + topic + "\",\"bizKey\":\"gone\",\"body\":\"g\",\"delay\":100}");
        assertThat(server.get("/delete?topic=" + topic + "&bizKey=gone").status()).isEqualTo(200);

        Map<String, String> bodies = new HashMap<>();
        for (int round = 0; round < 20 && bodies.size() < 2; round++) {
            for (JsonNode m : server.get("/get/" + topic + "?timeout=1000&count=10").data()) {
                bodies.put(m.get("id").asString(), m.get("body").asString());
            }
        }
        assertThat(bodies).containsOnly(Map.entry(moved, "m"), Map.entry(debounced, "new"));
        assertThat(server.get("/job/" + cancelled).data().get("status").asString()).isEqualTo("DELETED");
        assertThat(server.get("/job/" + moved).data().get("history").toString()).contains("rescheduled");
        assertThat(server.get("/job/" + debounced).data().get("history").toString()).contains("replaced");
        assertThat(server.postForm("/reschedule?jobId=" + moved + "&delay=5").status()).isEqualTo(409);
    }

    @Test
    void a_batch_of_a_thousand_is_accepted_in_order_and_delivered() {
        String topic = topic("batch");
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < 1_000; i++) {
            body.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(topic).append("\",\"bizKey\":\"b-")
                    .append(i).append("\",\"body\":\"").append(i).append("\",\"delay\":0}");
        }
        Reply reply = server.post("/push/batch", body.append("]").toString());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        reply.data().forEach(id -> ids.add(id.asString()));
        assertThat(ids).hasSize(1_000).doesNotHaveDuplicates();

        Map<String, String> bodies = new HashMap<>();
        for (int round = 0; round < 60 && bodies.size() < 1_000; round++) {
            for (JsonNode m : server.get("/get/" + topic + "?timeout=1000&count=100").data()) {
                bodies.put(m.get("id").asString(), m.get("body").asString());
            }
        }
        assertThat(bodies).hasSize(1_000);
        assertThat(bodies.get(ids.get(417))).isEqualTo("417");
        assertThat(server.post("/push/batch", "[{\"topic\":\"" + topic + "\",\"bizKey\":\"b-5\",\"body\":\"again\","
                + "\"delay\":0}]").data().get(0).asString()).isEqualTo(ids.get(5));
    }

    @Test
    void a_topic_takes_only_so_many_waiting_consumers_then_answers_429() throws Exception {
        String topic = topic("crowd");
        List<CompletableFuture<Reply>> parked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            parked.add(CompletableFuture.supplyAsync(() -> server.get("/get/" + topic + "?timeout=3000")));
        }
        Thread.sleep(500);

        Reply refused = server.get("/get/" + topic + "?timeout=100");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().get("code").asInt()).isEqualTo(429);
        for (CompletableFuture<Reply> waiting : parked) {
            assertThat(waiting.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }

    private static String topic(String name) {
        return name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }

    private static String push(String json) {
        Reply reply = server.post("/push", json);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static List<String> steps(JsonNode job) {
        List<String> steps = new ArrayList<>();
        job.get("history").forEach(step -> steps.add(step.get("from").asString("") + ">" + step.get("to").asString()));
        return steps;
    }

    private static int count(String sql, String topic) throws Exception {
        try (Connection c = db.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
