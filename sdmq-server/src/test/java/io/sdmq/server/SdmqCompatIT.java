package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of the original sdmq (peachyy/sdmq) against {@code /compat/sdmq}: its documented job message, with our
 * values, becomes an sdmq message with the fields sdmq sets itself ignored and {@code delay} in ms; delete and the
 * restores answer in that project's reply shape; bad input answers sdmq's 4xx naming the field and writes nothing.
 */
class SdmqCompatIT {
    private static final String UNKNOWN_ID = "7339155161346838528";
    private static final String PUSH = "/compat/sdmq/push";

    private static WatchedServer watched;
    private static RunningServer server;

    /** A request, its status and the start of its message. */
    record Bad(String method, String path, String contentType, String body, int status, String messageStart) {
        @Override
        public String toString() {
            return method + " " + path + (body == null ? "" : " " + body);
        }
    }

    static Stream<Bad> badRequests() {
        String json = "application/json";
        return Stream.of(
                new Bad("POST", PUSH, json, "{\"body\":\"x\",\"delay\":1000}", 400, "topic: "),
                new Bad("POST", PUSH, json, "{\"topic\":\"sdmq-bad\",\"body\":\"x\",\"delay\":-1}", 400, "delay: "),
                new Bad("POST", PUSH, json, "{\"topic\":\"sdmq-bad\",\"delay\":1000}", 400, "body: "),
                new Bad("POST", PUSH, json, "{\"topic\":\"sdmq-bad\",\"body\":\"x\",\"dealy\":1000}", 400, "dealy: "),
                new Bad("POST", PUSH, json, "{\"topic\":\"sdmq-bad\",\"body\":\"x\",\"delay\":\"soon\"}", 400,
                        "delay: "),
                new Bad("POST", PUSH, json, "{\"topic\":\"sdmq-bad\",\"body\":\"x\",\"bizKey\":\" k\"}", 400,
                        "bizKey: "),
                new Bad("POST", PUSH, json, "topic=sdmq-bad&body=x", 400, "body: "),
                new Bad("POST", PUSH, "text/plain", "{\"topic\":\"sdmq-bad\",\"body\":\"x\"}", 415, "Content-Type: "),
                new Bad("GET", "/compat/sdmq/delete?id=abc", null, null, 400, "id: "),
                new Bad("GET", "/compat/sdmq/delete", null, null, 400, "jobId: "),
                new Bad("GET", "/compat/sdmq/reStore?expire=maybe", null, null, 400, "expire: "),
                new Bad("GET", "/compat/sdmq/reStore/abc", null, null, 400, "id: "),
                new Bad("GET", "/compat/sdmq/reStoreJob?jobId=-1", null, null, 400, "jobId: "),
                new Bad("GET", "/compat/sdmq/delete?id=" + UNKNOWN_ID, null, null, 404, "message " + UNKNOWN_ID),
                new Bad("GET", "/compat/sdmq/reStore/" + UNKNOWN_ID, null, null, 404, "message " + UNKNOWN_ID));
    }

    @BeforeAll
    static void startServer() {
        watched = WatchedServer.start(Map.of());
        server = watched.server();
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @Test
    void the_documented_job_message_is_pushed_with_the_fields_sdmq_sets_itself_ignored() {
        Reply reply = server.post(PUSH, "{\"body\":\"{ffff}\",\"delay\":56600,\"id\":\"20\",\"status\":0,"
                + "\"topic\":\"sdmq-ces\",\"subtopic\":\"\",\"ttl\":12,\"bizKey\":\"order-7\","
                + "\"createTime\":1500000000000,\"extendData\":\"x\"}");

        JsonNode envelope = ok(reply);
        String id = envelope.get("data").asString();
        assertThat(id).isNotEqualTo("20").matches("[0-9]+");
        JsonNode job = server.get("/job/" + id).data();
        assertThat(job.get("topic").asString()).isEqualTo("sdmq-ces");
        assertThat(job.get("bizKey").asString()).isEqualTo("order-7");
        assertThat(job.get("body").asString()).isEqualTo("{ffff}");
        assertThat(job.get("dueTime").asLong() - job.get("createTime").asLong()).isEqualTo(56_600L);
        assertThat(job.get("createTime").asLong()).isGreaterThan(1_500_000_000_000L + 86_400_000L);
        assertThat(job.get("ttr").asLong()).as("ttl is not a time-to-run").isEqualTo(30_000L);
        assertThat(job.get("status").asString()).isIn("WAIT_PUT", "DELAY");
    }

    @Test
    void a_repeated_bizKey_answers_the_first_id_and_an_empty_one_is_none() {
        String first = ok(server.post(PUSH, "{\"topic\":\"sdmq-dup\",\"bizKey\":\"k-1\",\"body\":\"a\"}"))
                .get("data").asString();
        JsonNode again = ok(server.post(PUSH, "{\"topic\":\"sdmq-dup\",\"bizKey\":\"k-1\",\"body\":\"b\"}"));
        assertThat(again.get("data").asString()).isEqualTo(first);
        assertThat(again.get("message").asString()).isEqualTo("duplicate");

        String keyless = ok(server.post(PUSH, "{\"topic\":\"sdmq-dup\",\"bizKey\":\"\",\"body\":\"c\"}"))
                .get("data").asString();
        assertThat(server.get("/job/" + keyless).data().get("bizKey").isNull()).isTrue();
    }

    @Test
    void a_job_without_delay_is_due_at_once_and_reaches_a_native_consumer() {
        String id = ok(server.post(PUSH, "{\"topic\":\"sdmq-now\",\"body\":\"now\"}")).get("data").asString();

        Reply got = server.get("/get/sdmq-now?timeout=10000");

        assertThat(got.data()).hasSize(1);
        assertThat(got.data().get(0).get("id").asString()).isEqualTo(id);
        assertThat(got.data().get(0).get("body").asString()).isEqualTo("now");
    }

    @Test
    void delete_by_id_or_jobId_cancels_the_message_and_answers_null_data() {
        String byId = ok(server.post(PUSH, "{\"topic\":\"sdmq-del\",\"body\":\"a\",\"delay\":600000}"))
                .get("data").asString();
        String byJobId = ok(server.post(PUSH, "{\"topic\":\"sdmq-del\",\"body\":\"b\",\"delay\":600000}"))
                .get("data").asString();

        assertThat(ok(server.get("/compat/sdmq/delete?id=" + byId)).get("data").isNull()).isTrue();
        assertThat(ok(server.postForm("/compat/sdmq/delete?jobId=" + byJobId)).get("data").isNull()).isTrue();

        assertThat(server.get("/job/" + byId).data().get("status").asString()).isEqualTo("DELETED");
        assertThat(server.get("/job/" + byJobId).data().get("status").asString()).isEqualTo("DELETED");
        assertThat(server.get("/compat/sdmq/delete?id=" + byId).status()).isEqualTo(409);
    }

    @Test
    void restore_answers_a_sentence_and_a_restore_of_one_message_its_outcome() {
        String id = ok(server.post(PUSH, "{\"topic\":\"sdmq-restore\",\"body\":\"a\",\"delay\":600000}"))
                .get("data").asString();

        assertThat(ok(server.get("/compat/sdmq/reStore?expire=true")).get("data").asString()).startsWith("restored ")
                .contains(" ms ");
        JsonNode one = ok(server.get("/compat/sdmq/reStore/" + id));
        assertThat(one.get("data").isNull()).isTrue();
        assertThat(one.get("message").asString()).isEqualTo("ALREADY_PRESENT");
        assertThat(ok(server.get("/compat/sdmq/reStoreJob?jobId=" + id)).get("message").asString())
                .isEqualTo("ALREADY_PRESENT");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void bad_input_answers_its_status_naming_the_field_and_writes_no_row(Bad bad) {
        StoreState before = watched.settledState();

        Reply reply = bad.method().equals("GET") ? server.get(bad.path())
                : server.http().postAs(bad.path(), bad.contentType(), bad.body());

        assertThat(reply.status()).as(reply.body()).isEqualTo(bad.status());
        assertThat(ErrorEnvelope.messageOf(bad.toString(), bad.status(), reply.body())).startsWith(bad.messageStart());
        StoreState after = watched.state();
        assertThat(after.messages()).as("sdmq_message rows after " + bad).isEqualTo(before.messages());
        assertThat(after.logRows()).as("sdmq_message_log rows after " + bad).isEqualTo(before.logRows());
        if (bad.status() == 400 || bad.status() == 415) {
            assertThat(after).as("MySQL row counts and Redis keys after " + bad).isEqualTo(before);
        }
    }

    /** Asserts that project's success reply: HTTP 200, success, code 200; the reply. */
    private static JsonNode ok(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode envelope = reply.json();
        assertThat(envelope.get("success").asBoolean()).as(reply.body()).isTrue();
        assertThat(envelope.get("code").asInt()).as(reply.body()).isEqualTo(200);
        return envelope;
    }
}
