package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.sdmq.server.OuqiangCalls.failed;
import static io.sdmq.server.OuqiangCalls.id;
import static io.sdmq.server.OuqiangCalls.ok;
import static io.sdmq.server.OuqiangCalls.push;
import static io.sdmq.server.OuqiangCalls.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An ouqiang/delay-queue client against {@code /compat/ouqiang}: the bodies its README documents, with our values,
 * become sdmq messages keyed by the client's id, with seconds as seconds; pop hands the id back, finish and delete take
 * it; an id is one message across topics. The server's longest wait is 2 s, shorter than ouqiang's 180 s.
 */
class OuqiangCompatIT {
    private static final String PUSH = "/compat/ouqiang/push";
    private static final String POP = "/compat/ouqiang/pop";
    private static final String FINISH = "/compat/ouqiang/finish";
    private static final String DELETE = "/compat/ouqiang/delete";
    private static final long MAX_WAIT_MS = 2_000;

    private static WatchedServer watched;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        watched = WatchedServer.start(Map.of("sdmq.consumer.max-wait", MAX_WAIT_MS + "ms"));
        server = watched.server();
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @Test
    void the_documented_push_is_an_sdmq_message_keyed_by_the_client_id_with_delay_and_ttr_in_seconds() {
        String body = "{\"uid\": 10829378,\"created\": 1498657365 }";
        JsonNode reply = ok(server.post(PUSH, push("ouq-order", "15702398321", 3_600, 120, body)));

        assertThat(reply.get("data").isNull()).isTrue();
        JsonNode job = job("ouq-order", "15702398321");
        assertThat(job.get("bizKey").asString()).isEqualTo("15702398321");
        assertThat(job.get("body").asString()).isEqualTo(body);
        assertThat(job.get("dueTime").asLong() - job.get("createTime").asLong()).isEqualTo(3_600_000L);
        assertThat(job.get("ttr").asLong()).isEqualTo(120_000L);
        assertThat(job.get("status").asString()).isIn("WAIT_PUT", "DELAY");
    }

    @Test
    void a_popped_job_carries_the_client_id_and_body_and_is_finished_by_that_id() {
        ok(server.post(PUSH, push("ouq-pop", "pop-1", 1, 30, "first")));

        JsonNode popped = popUntilAJob("ouq-pop");
        assertThat(popped.get("id").asString()).isEqualTo("pop-1");
        assertThat(popped.get("body").asString()).isEqualTo("first");
        ok(server.post(FINISH, id("pop-1")));

        assertThat(job("ouq-pop", "pop-1").get("status").asString()).isEqualTo("FINISHED");
        assertThat(failed(server.post(FINISH, id("pop-1")))).contains("FINISHED");
    }

    @Test
    void a_repeated_id_is_an_idempotent_push_and_the_first_message_stays() {
        ok(server.post(PUSH, push("ouq-dup", "dup-1", 600, 30, "first")));

        JsonNode second = ok(server.post(PUSH, push("ouq-dup", "dup-1", 60, 45, "second")));

        assertThat(second.get("message").asString()).startsWith("duplicate");
        JsonNode job = job("ouq-dup", "dup-1");
        assertThat(job.get("body").asString()).isEqualTo("first");
        assertThat(job.get("dueTime").asLong() - job.get("createTime").asLong()).isEqualTo(600_000L);
        assertThat(job.get("ttr").asLong()).isEqualTo(30_000L);
    }

    @Test
    void an_id_taken_in_another_topic_is_refused_naming_that_topic_and_nothing_is_written() {
        ok(server.post(PUSH, push("ouq-a", "shared-1", 600, 30, "a")));
        StoreState before = watched.settledState();

        String refused = failed(server.post(PUSH, push("ouq-b", "shared-1", 600, 30, "b")));

        assertThat(refused).startsWith("id: ").contains("ouq-a");
        assertThat(watched.state()).isEqualTo(before);
        assertThat(OuqiangCalls.sdmqIds(watched.rows(), "ouq-b", "shared-1")).isEmpty();
    }

    @Test
    void an_id_a_native_push_took_in_another_topic_makes_finish_and_delete_name_both_topics_and_change_nothing() {
        ok(server.post(PUSH, push("ouq-x", "both-1", 600, 30, "x")));
        Reply nativePush = server.post("/push", "{\"topic\":\"ouq-y\",\"bizKey\":\"both-1\",\"body\":\"y\","
                + "\"delay\":600000}");
        assertThat(nativePush.status()).as(nativePush.body()).isEqualTo(200);
        StoreState before = watched.settledState();

        assertThat(failed(server.post(DELETE, id("both-1")))).startsWith("id: ").contains("ouq-x, ouq-y");
        assertThat(failed(server.post(FINISH, id("both-1")))).startsWith("id: ").contains("ouq-x, ouq-y");

        assertThat(watched.state()).isEqualTo(before);
    }

    @Test
    void delete_by_the_client_id_cancels_the_message_and_the_id_is_not_reused() {
        ok(server.post(PUSH, push("ouq-del", "del-1", 600, 30, "x")));

        ok(server.post(DELETE, id("del-1")));

        assertThat(job("ouq-del", "del-1").get("status").asString()).isEqualTo("DELETED");
        assertThat(failed(server.post(DELETE, id("del-1")))).contains("DELETED");
        assertThat(failed(server.post(PUSH, push("ouq-del", "del-1", 600, 30, "again")))).startsWith("id: ")
                .contains("DELETED");
        assertThat(OuqiangCalls.sdmqIds(watched.rows(), "ouq-del", "del-1")).hasSize(1);
    }

    @Test
    void a_pop_with_nothing_due_is_held_for_the_shorter_wait_then_answers_null_data() {
        ok(server.post(PUSH, push("ouq-idle", "idle-1", 600, 30, "later")));
        long started = System.nanoTime();

        JsonNode reply = ok(server.post(POP, topic("ouq-idle")));

        assertThat(reply.get("data").isNull()).as(reply.toString()).isTrue();
        assertThat((System.nanoTime() - started) / 1_000_000).as("ms the pop was held").isBetween(MAX_WAIT_MS - 100,
                MAX_WAIT_MS + 10_000);
    }

    @Test
    void a_message_pushed_natively_without_a_bizKey_pops_under_its_sdmq_id_which_finishes_it() {
        Reply pushed = server.post("/push", "{\"topic\":\"ouq-keyless\",\"body\":\"native\",\"delay\":0}");
        String sdmqId = pushed.data().asString();

        JsonNode popped = popUntilAJob("ouq-keyless");
        assertThat(popped.get("id").asString()).isEqualTo(sdmqId);
        ok(server.post(FINISH, id(sdmqId)));

        assertThat(server.get("/job/" + sdmqId).data().get("status").asString()).isEqualTo("FINISHED");
    }

    @Test
    void the_body_is_read_as_sent_whatever_its_content_type_as_ouqiang_reads_it() {
        String body = "a=1&b=2+3%20";
        ok(server.http().postAs(PUSH, null, push("ouq-types", "none-1", 600, 30, body)));
        ok(server.http().postAs(PUSH, "text/plain", push("ouq-types", "text-1", 600, 30, body)));
        // what curl -d and PHP's curl send unless told otherwise
        ok(server.http().postAs(PUSH, "application/x-www-form-urlencoded", push("ouq-types", "form-1", 600, 30, body)));

        for (String id : List.of("none-1", "text-1", "form-1")) {
            assertThat(job("ouq-types", id).get("body").asString()).as(id).isEqualTo(body);
        }
    }

    /** The message the native admin route shows for a client id. */
    private static JsonNode job(String topic, String clientId) {
        List<Long> ids = OuqiangCalls.sdmqIds(watched.rows(), topic, clientId);
        assertThat(ids).as("messages of " + clientId + " in " + topic).hasSize(1);
        Reply reply = server.get("/job/" + ids.get(0));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data();
    }

    /** Pops until a job comes (each pop holds up to the longest wait); its data. */
    private static JsonNode popUntilAJob(String topic) {
        AtomicReference<JsonNode> data = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> {
            data.set(ok(server.post(POP, topic(topic))).get("data"));
            return !data.get().isNull();
        });
        return data.get();
    }
}
