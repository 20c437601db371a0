package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A consumer's loop in one call per batch: {@code POST /get} finishes the last batch; {@code linger} fills the next. */
class BatchConsumeIT {
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        // lingers up to 5 s allowed, so that a test's messages never race the linger's end
        server = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.consumer.max-linger", "5s"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_post_get_finishes_the_last_batch_and_answers_each_outcome_with_the_next_batch() {
        String topic = topic();
        List<String> first = push(topic, 3);
        JsonNode batch = server.post("/get/" + topic + "?count=3&timeout=5000&linger=3000", "").data();
        assertThat(ids(batch.get("messages"))).containsExactlyInAnyOrderElementsOf(first);
        assertThat(batch.get("finished")).isEmpty();
        List<String> second = push(topic, 2);

        JsonNode next = server.post("/get/" + topic + "?count=2&timeout=5000&linger=3000",
                "[\"" + String.join("\",\"", first) + "\",\"42\",\"x\"]").data();

        assertThat(ids(next.get("messages"))).containsExactlyInAnyOrderElementsOf(second);
        JsonNode finished = next.get("finished");
        assertThat(finished).hasSize(5);
        for (int i = 0; i < 3; i++) {
            assertThat(finished.get(i).get("id").asString()).isEqualTo(first.get(i));
            assertThat(finished.get(i).get("code").asInt()).isEqualTo(200);
            assertThat(server.get("/job/" + first.get(i)).data().get("status").asString()).isEqualTo("FINISHED");
        }
        assertThat(finished.get(3).get("code").asInt()).isEqualTo(404);
        assertThat(finished.get(4).get("code").asInt()).isEqualTo(400);
        assertThat(finished.get(4).get("message").asString()).startsWith("jobId:");
    }

    @Test
    void a_get_with_a_linger_gathers_messages_falling_due_apart_into_one_reply() {
        String topic = topic();
        String soon = pushOk(topic, 300);
        String later = pushOk(topic, 600);

        JsonNode got = server.get("/get/" + topic + "?count=2&timeout=5000&linger=3000").data();

        assertThat(ids(got)).containsExactly(soon, later);
    }

    @Test
    void a_get_without_a_linger_answers_with_the_first_message_ready() {
        String topic = topic();
        String soon = pushOk(topic, 300);
        pushOk(topic, 2_000);

        assertThat(ids(server.get("/get/" + topic + "?count=2&timeout=5000").data())).containsExactly(soon);
    }

    @Test
    void bad_linger_or_finish_ids_answer_400_and_finish_nothing() {
        String topic = topic();
        List<String> ids = push(topic, 1);
        server.get("/get/" + topic + "?timeout=5000");

        Reply tooLong = server.get("/get/" + topic + "?timeout=0&linger=5001");
        Reply negative = server.post("/get/" + topic + "?timeout=0&linger=-1", "[\"" + ids.get(0) + "\"]");
        Reply notIds = server.post("/get/" + topic + "?timeout=0", "{\"id\":1}");

        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("message").asString()).isEqualTo("linger: must be in 0..5000 ms");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(notIds.status()).isEqualTo(400);
        // a finish is committed before its call answers, and a late background write never overwrites it: a message
        // that reaches RESERVED in MySQL (the pop is written in the background) was not finished
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                server.get("/job/" + ids.get(0)).data().get("status").asString()).isEqualTo("RESERVED"));
    }

    private static String topic() {
        return "batch-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }

    private static List<String> push(String topic, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(pushOk(topic, 0));
        }
        return ids;
    }

    private static String pushOk(String topic, long delay) {
        Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"b\",\"delay\":" + delay + "}");
        assertThat(reply.status()).isEqualTo(200);
        return reply.data().asString();
    }

    private static List<String> ids(JsonNode messages) {
        List<String> ids = new ArrayList<>();
        messages.forEach(m -> ids.add(m.get("id").asString()));
        return ids;
    }
}
