package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bad request answers its documented 4xx with an envelope whose message names the field, leaks nothing of the
 * server's insides, and writes nothing: neither a MySQL row nor a Redis key. Unknown ids answer 404 and a deleted
 * message answers 409, also without writing a MySQL row.
 */
class BadInputIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Object ABSENT = new Object();
    private static final long DAY_MS = 86_400_000L;
    private static final long MAX_DELAY_MS = 365 * DAY_MS;
    private static final String UNKNOWN_ID = "7339155161346838528";
    private static final String GONE_TOPIC = "bad-input-gone";
    private static final String GONE_KEY = "order-1";

    private static WatchedServer watched;
    private static RunningServer server;
    /** A message that was pushed and then deleted: every operation on it answers 409. */
    private static String deletedId;

    @BeforeAll
    static void startServer() {
        watched = WatchedServer.start(Map.of());
        server = watched.server();

        Reply pushed = server.post("/push", message(Map.of("topic", GONE_TOPIC, "bizKey", GONE_KEY)));
        assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
        deletedId = pushed.data().asString();
        Reply deleted = server.postForm("/delete?jobId=" + deletedId);
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void a_bad_request_answers_its_status_names_the_field_and_writes_nothing(BadRequest bad) {
        StoreState before = watched.settledState();

        Answer answer = send(bad.request());

        assertAnswers(bad, answer);
        assertThat(watched.state()).as("MySQL row counts and Redis keys after " + bad).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknownAndTerminalIds")
    void an_unknown_id_answers_404_and_a_deleted_message_409_without_a_row_written(BadRequest bad) {
        StoreState before = watched.settledState();

        Answer answer = send(bad.request());

        assertAnswers(bad, answer);
        StoreState after = watched.state();
        assertThat(after.messages()).as("sdmq_message rows after " + bad).isEqualTo(before.messages());
        assertThat(after.logRows()).as("sdmq_message_log rows after " + bad).isEqualTo(before.logRows());
    }

    static Stream<BadRequest> badRequests() {
        long now = System.currentTimeMillis();
        return Stream.of(
                // POST /push: the message fields
                json("push without topic", "/push", message("topic", ABSENT)).answers(400, "topic"),
                json("push with an empty topic", "/push", message("topic", "")).answers(400, "topic"),
                json("push with a space in the topic", "/push", message("topic", "order timeout"))
                        .answers(400, "topic"),
                json("push with a 65-character topic", "/push", message("topic", "t".repeat(65))).answers(400, "topic"),
                json("push with a slash in the topic", "/push", message("topic", "orders/timeout"))
                        .answers(400, "topic"),
                json("push with a non-ASCII topic", "/push", message("topic", "commandé")).answers(400, "topic"),
                json("push with an empty bizKey", "/push", message("bizKey", "")).answers(400, "bizKey"),
                json("push with a 129-character bizKey", "/push", message("bizKey", "k".repeat(129)))
                        .answers(400, "bizKey"),
                json("push with a trailing space in the bizKey", "/push", message("bizKey", "order-42 "))
                        .answers(400, "bizKey"),
                json("push with a leading space in the bizKey", "/push", message("bizKey", " order-42"))
                        .answers(400, "bizKey"),
                json("push without the body field", "/push", message("body", ABSENT)).answers(400, "body"),
                json("push with no request body at all", "/push", "").answers(400, "body"),
                json("push with a body over 64 KB", "/push", message("body", "x".repeat(65_537))).answers(413, "body"),
                json("push with both delay and deliverAt", "/push", message("deliverAt", now + 60_000))
                        .answers(400, "delay"),
                json("push with neither delay nor deliverAt", "/push", message("delay", ABSENT)).answers(400, "delay"),
                json("push with a negative delay", "/push", message("delay", -1)).answers(400, "delay"),
                json("push with a delay beyond 365 days", "/push", message("delay", MAX_DELAY_MS + 1))
                        .answers(400, "delay"),
                json("push with deliverAt beyond 365 days", "/push", message(Map.of("deliverAt", now + 366 * DAY_MS)))
                        .answers(400, "deliverAt"),
                json("push with a negative deliverAt", "/push", message(Map.of("deliverAt", -1)))
                        .answers(400, "deliverAt"),
                json("push with priority -1", "/push", message("priority", -1)).answers(400, "priority"),
                json("push with priority 1000", "/push", message("priority", 1000)).answers(400, "priority"),
                json("push with ttr 999", "/push", message("ttr", 999)).answers(400, "ttr"),
                json("push with ttr above 12 h", "/push", message("ttr", 43_200_001)).answers(400, "ttr"),
                json("push with maxAttempts 0", "/push", message("maxAttempts", 0)).answers(400, "maxAttempts"),
                json("push with maxAttempts 101", "/push", message("maxAttempts", 101)).answers(400, "maxAttempts"),
                json("push with an empty retryDelays", "/push", message("retryDelays", List.of()))
                        .answers(400, "retryDelays"),
                json("push with a negative retry delay", "/push", message("retryDelays", List.of(1_000, -1)))
                        .answers(400, "retryDelays"),
                json("push with 101 retry delays", "/push", message("retryDelays", Collections.nCopies(101, 1_000)))
                        .answers(400, "retryDelays"),
                json("push with onDuplicate sometimes", "/push", message("onDuplicate", "sometimes"))
                        .answers(400, "onDuplicate"),
                // POST /push: the shape of the JSON
                json("push with delay as a string", "/push", message("delay", "abc")).answers(400, "delay"),
                json("push with priority as a float", "/push", message("priority", 1.5)).answers(400, "priority"),
                json("push with priority as an object", "/push", message("priority", Map.of("value", 1)))
                        .answers(400, "priority"),
                json("push with the misspelt field topik", "/push", message("topik", "orders")).answers(400, "topik"),
                json("push with a status, which only the server sets", "/push", message("status", "FINISHED"))
                        .answers(400, "status"),
                json("push with malformed JSON", "/push", "{\"topic\":\"orders\",\"body\":").answers(400, "body"),
                json("push with a JSON array instead of an object", "/push", "[" + message(Map.of()) + "]")
                        .answers(400, "body"),
                json("push with the JSON literal null", "/push", "null").answers(400, "body"),
                raw("push as text/plain", "/push", "text/plain", message(Map.of())).answers(415, "Content-Type"),
                raw("push without a Content-Type", "/push", null, message(Map.of())).answers(415, "Content-Type"),
                // POST /push/batch
                json("batch of no messages", "/push/batch", "[]").answers(400, "messages"),
                json("batch of 1 001 messages", "/push/batch", batch(Collections.nCopies(1_001, fields(Map.of()))))
                        .answers(400, "messages"),
                json("batch with bad messages at [1] and [3] between good ones", "/push/batch", batch(List.of(
                        fields(Map.of()), fields("topic", "no spaces"), fields(Map.of()), fields("delay", -1),
                        fields(Map.of()))))
                        .answers(400, "messages", "[1].topic: ", "[3].delay: "),
                json("batch with a misspelt field at [2]", "/push/batch", batch(List.of(
                        fields(Map.of()), fields(Map.of()), fields("topik", "orders"))))
                        .answers(400, "messages", "[2].topik"),
                json("batch with mixed onDuplicate", "/push/batch", batch(List.of(
                        fields("onDuplicate", "ignore"), fields("onDuplicate", "replace"))))
                        .answers(400, "onDuplicate"),
                json("batch with a null message", "/push/batch", "[" + message(Map.of()) + ",null]")
                        .answers(400, "messages"),
                json("batch with an object instead of an array", "/push/batch", message(Map.of()))
                        .answers(400, "body"),
                raw("batch as text/plain", "/push/batch", "text/plain", batch(List.of(fields(Map.of()))))
                        .answers(415, "Content-Type"),
                // GET /get/{topic}
                get("/get/order%20timeout").answers(400, "topic"),
                get("/get/" + "t".repeat(65)).answers(400, "topic"),
                get("/get/x%25y").answers(400, "topic"),
                get("/get/orders?count=0").answers(400, "count"),
                get("/get/orders?count=101").answers(400, "count"),
                get("/get/orders?count=many").answers(400, "count"),
                get("/get/orders?timeout=-1").answers(400, "timeout"),
                get("/get/orders?timeout=60001").answers(400, "timeout"),
                get("/get/orders?timeout=abc").answers(400, "timeout"),
                // POST /finish
                post("/finish?jobId=abc").answers(400, "jobId"),
                post("/finish?jobId=-5").answers(400, "jobId"),
                post("/finish?id=0").answers(400, "id"),
                post("/finish").answers(400, "jobId"),
                json("finish with a JSON list of 1 001 ids", "/finish", ids(1_001)).answers(400, "ids"),
                json("finish with an empty JSON list", "/finish", "[]").answers(400, "ids"),
                // /delete
                post("/delete").answers(400, "jobId"),
                get("/delete?jobId=abc").answers(400, "jobId"),
                post("/delete?topic=orders").answers(400, "bizKey"),
                post("/delete?bizKey=order-42").answers(400, "topic"),
                // POST /reschedule, /nack, /touch
                post("/reschedule?jobId=" + UNKNOWN_ID).answers(400, "delay"),
                post("/reschedule?jobId=" + UNKNOWN_ID + "&delay=-1").answers(400, "delay"),
                post("/reschedule?jobId=" + UNKNOWN_ID + "&delay=1000&deliverAt=" + (now + 60_000))
                        .answers(400, "delay"),
                post("/reschedule?jobId=" + UNKNOWN_ID + "&deliverAt=" + (now + 366 * DAY_MS))
                        .answers(400, "deliverAt"),
                post("/reschedule?jobId=x&delay=1000").answers(400, "jobId"),
                post("/nack?jobId=" + UNKNOWN_ID + "&delay=-1").answers(400, "delay"),
                post("/nack?delay=1000").answers(400, "jobId"),
                post("/nack?jobId=" + UNKNOWN_ID + "&dead=true&delay=0").answers(400, "delay"),
                post("/nack?jobId=" + UNKNOWN_ID + "&dead=maybe").answers(400, "dead"),
                post("/touch?jobId=1.5").answers(400, "jobId"),
                // admin
                get("/reStore?expire=maybe").answers(400, "expire"),
                post("/reStore?wait=maybe").answers(400, "wait"),
                get("/topics/orders/series?minutes=0").answers(400, "minutes"),
                get("/topics/orders/series?minutes=61").answers(400, "minutes"),
                get("/topics/orders/series?minutes=x").answers(400, "minutes"),
                get("/topics/orders/series?minutes=-1").answers(400, "minutes"),
                get("/reStoreJob?jobId=abc").answers(400, "jobId"),
                get("/reStoreJob?jobId=" + UNKNOWN_ID + "&expire=maybe").answers(400, "expire"),
                get("/job/abc").answers(400, "jobId"),
                post("/requeue?jobId=0").answers(400, "jobId"));
    }

    static Stream<BadRequest> unknownAndTerminalIds() {
        String unknown = "message " + UNKNOWN_ID + " not found";
        String deleted = "message " + deletedId + " is DELETED";
        return Stream.of(
                post("/delete?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                get("/delete?id=" + UNKNOWN_ID).answersExactly(404, unknown),
                post("/delete?topic=" + GONE_TOPIC + "&bizKey=nobody").answersExactly(404, "no message of topic"),
                post("/finish?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                post("/nack?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                post("/touch?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                post("/reschedule?jobId=" + UNKNOWN_ID + "&delay=1000").answersExactly(404, unknown),
                post("/requeue?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                get("/reStoreJob?jobId=" + UNKNOWN_ID).answersExactly(404, unknown),
                get("/job/" + UNKNOWN_ID).answersExactly(404, unknown),
                post("/delete?jobId=" + deletedId).answersExactly(409, deleted),
                post("/delete?topic=" + GONE_TOPIC + "&bizKey=" + GONE_KEY).answersExactly(409, deleted),
                post("/finish?jobId=" + deletedId).answersExactly(409, deleted),
                post("/nack?jobId=" + deletedId).answersExactly(409, deleted),
                post("/touch?jobId=" + deletedId).answersExactly(409, deleted),
                post("/reschedule?jobId=" + deletedId + "&delay=1000").answersExactly(409, deleted),
                post("/requeue?jobId=" + deletedId).answersExactly(409, deleted),
                get("/reStoreJob?jobId=" + deletedId).answersExactly(409, deleted),
                json("push replacing the deleted message's bizKey", "/push",
                        message(Map.of("topic", GONE_TOPIC, "bizKey", GONE_KEY, "onDuplicate", "replace")))
                        .answersExactly(409, deleted));
    }

    private static void assertAnswers(BadRequest bad, Answer answer) {
        assertThat(answer.status()).as("status of " + bad + ": " + answer.body()).isEqualTo(bad.status());
        String message = ErrorEnvelope.messageOf(bad.toString(), bad.status(), answer.body());
        assertThat(message).as("message of " + bad).startsWith(bad.messageStart());
        for (String named : bad.alsoNamed()) {
            assertThat(message).as("message of " + bad).contains(named);
        }
    }

    // ---- the requests

    /** An HTTP request: a null content type sends no Content-Type header, a null body sends no body. */
    record Request(String name, String method, String path, String contentType, String body) {

        /** A 4xx whose message starts with {@code field + ": "} and names {@code alsoNamed} too. */
        BadRequest answers(int status, String field, String... alsoNamed) {
            return new BadRequest(this, status, field + ": ", List.of(alsoNamed));
        }

        /** A reply whose message starts with {@code messageStart}. */
        BadRequest answersExactly(int status, String messageStart) {
            return new BadRequest(this, status, messageStart, List.of());
        }
    }

    record BadRequest(Request request, int status, String messageStart, List<String> alsoNamed) {
        @Override
        public String toString() {
            return request.name();
        }
    }

    private static Request json(String name, String path, String body) {
        return raw(name, path, "application/json", body);
    }

    private static Request raw(String name, String path, String contentType, String body) {
        return new Request(name + " (POST " + path + ")", "POST", path, contentType, body);
    }

    private static Request get(String path) {
        return new Request("GET " + path, "GET", path, null, null);
    }

    private static Request post(String path) {
        return new Request("POST " + path, "POST", path, null, null);
    }

    /** A valid message as a map, with {@code field} set to {@code value}, or removed when it is {@link #ABSENT}. */
    private static Map<String, Object> fields(String field, Object value) {
        Map<String, Object> fields = fields(Map.of());
        if (value == ABSENT) {
            fields.remove(field);
        } else {
            fields.put(field, value);
        }
        return fields;
    }

    /** A valid message as a map, with {@code changes} applied; a deliverAt replaces the delay. */
    private static Map<String, Object> fields(Map<String, Object> changes) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("topic", "bad-input");
        fields.put("body", "{\"orderId\":42}");
        if (!changes.containsKey("deliverAt")) {
            fields.put("delay", 600_000);
        }
        fields.putAll(changes);
        return fields;
    }

    private static String message(String field, Object value) {
        return JSON.writeValueAsString(fields(field, value));
    }

    private static String message(Map<String, Object> changes) {
        return JSON.writeValueAsString(fields(changes));
    }

    private static String batch(List<Map<String, Object>> messages) {
        return JSON.writeValueAsString(messages);
    }

    private static String ids(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            ids.add(Long.toString(i));
        }
        return JSON.writeValueAsString(ids);
    }

    private record Answer(int status, String body) {
    }

    private static Answer send(Request request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.http().base() + request.path()))
                .timeout(Duration.ofSeconds(30))
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(request.body()));
        if (request.contentType() != null) {
            builder.header("Content-Type", request.contentType());
        }
        try {
            HttpResponse<String> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(request + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
