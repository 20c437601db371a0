package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GET /messages (newest first, keyset pages, filters, indexes), the status log's note of a bulk action, and the bad
 * input of the search and of every bulk route: 400 naming the field and its rule, nothing changed.
 */
class OperatorSearchIT {
    private static final String ALL_NAMED = "all: must be true for a filter that names no topic, ids, bizKey, status"
            + " or dueBefore, so that matching every message is meant";

    private static RunningServer server;
    private static DataSource db;
    private static String prefix;

    @BeforeAll
    static void startServer() {
        TestDatabase database = TestServices.freshDatabase();
        prefix = TestServices.freshKeyPrefix();
        db = database.dataSource();
        server = RunningServer.start(database, TestServices.redisUrl(), prefix, Map.of());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void search_answers_newest_first_in_pages_that_a_cursor_continues() {
        String topic = topic();
        List<String> ids = push(topic, 5, "k-");

        JsonNode first = search("topic=" + topic + "&limit=2");
        assertThat(ids(first)).containsExactly(ids.get(4), ids.get(3));
        JsonNode second = search("topic=" + topic + "&limit=2&cursor=" + first.get("nextCursor").asString());
        assertThat(ids(second)).containsExactly(ids.get(2), ids.get(1));
        JsonNode last = search("topic=" + topic + "&limit=2&cursor=" + second.get("nextCursor").asString());
        assertThat(ids(last)).containsExactly(ids.get(0));
        assertThat(last.get("nextCursor").isNull()).isTrue();
        assertThat(last.get("items").get(0).get("bizKey").asString()).isEqualTo("k-0");
        assertThat(last.get("items").get(0).get("topic").asString()).isEqualTo(topic);
    }

    @Test
    void search_filters_by_status_business_key_and_creation_time() {
        String topic = topic();
        List<String> ids = new ArrayList<>(push(topic, 2, "f-"));
        long before = server.get("/job/" + ids.get(1)).data().get("createTime").asLong();
        await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > before);
        ids.addAll(push(topic, 1, "g-"));
        await().atMost(Duration.ofSeconds(30)).until(() -> ids(search("topic=" + topic + "&status=DELAY")).size() == 3);
        assertThat(server.post("/delete?jobId=" + ids.get(1), "").status()).isEqualTo(200);
        long created = server.get("/job/" + ids.get(2)).data().get("createTime").asLong();

        assertThat(ids(search("topic=" + topic + "&status=DELAY"))).containsExactly(ids.get(2), ids.get(0));
        assertThat(ids(search("topic=" + topic + "&status=DELETED"))).containsExactly(ids.get(1));
        assertThat(ids(search("bizKey=f-0&topic=" + topic))).containsExactly(ids.get(0));
        assertThat(ids(search("topic=" + topic + "&createdFrom=" + Instant.ofEpochMilli(created))))
                .containsExactly(ids.get(2));
        assertThat(ids(search("topic=" + topic + "&createdTo=" + Instant.ofEpochMilli(created))))
                .containsExactly(ids.get(1), ids.get(0));
    }

    @Test
    void a_cursor_altered_or_sent_with_other_filters_is_refused() {
        String topic = topic();
        push(topic, 3, null);
        String cursor = search("topic=" + topic + "&limit=1").get("nextCursor").asString();
        String rule = "cursor: must be the nextCursor of the page before, unchanged, with the same topic, status,"
                + " bizKey, createdFrom and createdTo";

        assertBadSearch("topic=" + topic + "&cursor=" + cursor.substring(1), rule);
        assertBadSearch("topic=" + topic + "&cursor=" + cursor + "A", rule);
        assertBadSearch("topic=" + topic + "&status=DELAY&cursor=" + cursor, rule);
        assertBadSearch("cursor=" + cursor, rule);
        assertBadSearch("topic=" + topic + "&cursor=%25%25%25", rule);
        assertBadSearch("topic=" + topic + "&cursor=" + encode(java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("12345.0000000000000000".getBytes(StandardCharsets.US_ASCII))), rule);
    }

    @Test
    void the_search_reads_an_index_in_id_order_without_a_sort() throws SQLException {
        String topic = topic();
        for (int i = 0; i < 3; i++) {
            push(topic + i, 1_000, "e" + i + "-");
        }
        // the moves to DELAY reach MySQL in the background; the plan of "status = 'DELAY'" is for the rows once there
        await().atMost(Duration.ofSeconds(30)).until(() -> delayedRows(topic) == 3_000);
        for (String where : List.of("topic = '" + topic + "1'", "status = 'DELAY'", "biz_key = 'e1-5'",
                "topic = '" + topic + "1' AND status = 'DELAY'")) {
            List<String> plan = explain("SELECT id FROM sdmq_message WHERE id < 9223372036854775807 AND " + where
                    + " ORDER BY id DESC LIMIT 101");
            // where most rows match, reading the primary key backwards is the optimizer's fair choice: no sort either
            assertThat(plan.get(0)).as(where).isNotEqualTo("ALL");
            assertThat(plan.get(1)).as(where).isNotEqualTo("null");
            assertThat(plan.get(2)).as(where).doesNotContain("filesort");
        }
        assertThat(explain("SELECT id FROM sdmq_message WHERE id < 9223372036854775807 AND topic = '" + topic
                + "1' ORDER BY id DESC LIMIT 101").get(1)).isEqualTo("idx_sdmq_message_topic_id");
        assertThat(explain("SELECT id FROM sdmq_message WHERE id < 9223372036854775807 AND biz_key = 'e1-5'"
                + " ORDER BY id DESC LIMIT 101").get(1)).isEqualTo("idx_sdmq_message_biz_key");
    }

    @Test
    void a_bulk_action_notes_its_name_and_the_callers_token_in_the_status_log() {
        String topic = topic();
        String id = push(topic, 1, null).get(0);

        JsonNode result = server.post("/messages/run-now", "{\"ids\":[\"" + id + "\"]}").data();

        assertThat(result.get("matched").asLong()).isEqualTo(1);
        assertThat(result.get("changed").asLong()).isEqualTo(1);
        assertThat(notes(id)).contains("run-now by anonymous");
        String token = "admin-" + "x".repeat(40);
        try (RunningServer closed = RunningServer.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.auth.admin-token", token))) {
            String other = closed.http().send("POST", "/push", "Bearer " + token, "{\"topic\":\"" + topic
                    + "\",\"body\":\"b\",\"delay\":3600000}").body().replaceAll(".*\"data\":\"?(\\d+).*", "$1");
            Reply reply = reply(closed.http().send("POST", "/messages/delete", "Bearer " + token,
                    "{\"topic\":\"" + topic + "\"}"));
            assertThat(reply.data().get("changed").asLong()).as(reply.body()).isEqualTo(1);
            JsonNode history = reply(closed.http().send("GET", "/job/" + other, "Bearer " + token, null)).data()
                    .get("history");
            assertThat(history.get(history.size() - 1).get("note").asString()).isEqualTo("delete by admin token 1");
        }
    }

    @Test
    void bad_search_parameters_answer_400_naming_the_field() {
        assertBadSearch("limit=0", "limit: must be a whole number in 1..1000");
        assertBadSearch("limit=1001", "limit: must be a whole number in 1..1000");
        assertBadSearch("limit=ten", "limit: must be a whole number in 1..1000");
        assertBadSearch("status=LOST", "status: must be one of WAIT_PUT, DELAY, READY, RESERVED, FINISHED, DELETED,"
                + " DEAD, EXPIRED");
        assertBadSearch("status=delay", "status: must be one of WAIT_PUT, DELAY, READY, RESERVED, FINISHED, DELETED,"
                + " DEAD, EXPIRED");
        assertBadSearch("createdFrom=yesterday", "createdFrom: must be an ISO-8601 instant such as"
                + " 2026-11-27T18:00:00Z");
        assertBadSearch("createdTo=2026-11-27", "createdTo: must be an ISO-8601 instant such as 2026-11-27T18:00:00Z");
        assertBadSearch("topic=a%20b", "topic: must match [A-Za-z0-9._-]{1,64}");
        assertBadSearch("bizKey=%20k", "bizKey: must be 1..128 characters without leading or trailing spaces when"
                + " given");
    }

    @Test
    void bad_bulk_filters_answer_400_naming_the_field_and_change_nothing() {
        String topic = topic();
        push(topic, 2, null);
        String dead = "status: must be one of DEAD, EXPIRED";
        List<String[]> cases = List.of(
                new String[]{"/messages/run-now", "{}", ALL_NAMED},
                new String[]{"/messages/requeue", "{\"all\":false}", ALL_NAMED},
                new String[]{"/messages/delete", "{\"topic\":null}", ALL_NAMED},
                new String[]{"/messages/delete", "{\"all\":true,\"topic\":\"" + topic + "\"}",
                        "all: must be absent when another field narrows the filter"},
                new String[]{"/messages/run-now", "{\"status\":\"LOST\"}", "status: must be one of WAIT_PUT, DELAY"},
                new String[]{"/messages/run-now", "{\"status\":\"READY\"}", "status: must be one of WAIT_PUT, DELAY"},
                new String[]{"/messages/requeue", "{\"status\":\"DELAY\"}", dead},
                new String[]{"/messages/delete", "{\"status\":\"FINISHED\"}",
                        "status: must be one of WAIT_PUT, DELAY, READY, RESERVED, DEAD, EXPIRED"},
                new String[]{"/messages/run-now", "{\"dueBefore\":\"tomorrow\"}",
                        "dueBefore: must be an ISO-8601 instant such as 2026-11-27T18:00:00Z"},
                new String[]{"/messages/delete", "{\"ids\":[]}", "ids: must hold 1..1000 message ids when given"},
                new String[]{"/messages/delete", "{\"ids\":[\"12\",\"x\"]}",
                        "ids[1]: must be a message id (a positive 64-bit integer)"},
                new String[]{"/messages/delete", "{\"ids\":[\"-3\"]}",
                        "ids[0]: must be a message id (a positive 64-bit integer)"},
                new String[]{"/messages/delete", "{\"ids\":[null]}",
                        "ids[0]: must be a message id (a positive 64-bit integer)"},
                new String[]{"/messages/delete", "{\"ids\":" + thousandAndOne() + "}",
                        "ids: must hold 1..1000 message ids when given"},
                new String[]{"/messages/requeue", "{\"topic\":\"a b\"}", "topic: must match [A-Za-z0-9._-]{1,64}"},
                new String[]{"/messages/requeue", "{\"bizKey\":\"\"}",
                        "bizKey: must be 1..128 characters without leading or trailing spaces when given"},
                new String[]{"/messages/delete", "{\"topics\":\"" + topic + "\"}",
                        "topics: is unknown or has the wrong type"},
                new String[]{"/messages/delete", "{\"all\":\"yes\"}", "all: is unknown or has the wrong type"},
                new String[]{"/messages/delete", "[", "body: must be well-formed JSON of the documented shape"},
                new String[]{"/topics/a%20b/purge", "", "topic: must match [A-Za-z0-9._-]{1,64}"});
        StoreState before = StoreState.settled(db, prefix);
        for (String[] c : cases) {
            Reply reply = server.post(c[0], c[1]);
            assertThat(reply.status()).as(c[0] + " " + c[1] + ": " + reply.body()).isEqualTo(400);
            assertThat(reply.json().get("message").asString()).as(c[0] + " " + c[1]).isEqualTo(c[2]);
        }
        assertThat(StoreState.of(db, prefix)).isEqualTo(before);
    }

    private static String thousandAndOne() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 1_001; i++) {
            ids.add("\"" + i + "\"");
        }
        return "[" + String.join(",", ids) + "]";
    }

    private static void assertBadSearch(String query, String message) {
        Reply reply = server.get("/messages?" + query);
        assertThat(reply.status()).as(query + ": " + reply.body()).isEqualTo(400);
        assertThat(reply.json().get("message").asString()).as(query).isEqualTo(message);
    }

    private static JsonNode search(String query) {
        Reply reply = server.get("/messages?" + query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    /** Pushes {@code n} messages due in an hour, one call each so that their ids grow in order. */
    private static List<String> push(String topic, int n, String keyPrefix) {
        List<String> ids = new ArrayList<>();
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            batch.append(i == 0 ? "" : ",").append("{\"topic\":\"").append(topic).append("\",\"body\":\"b").append(i)
                    .append("\",\"delay\":3600000").append(keyPrefix == null ? "" : ",\"bizKey\":\"" + keyPrefix + i
                            + "\"").append('}');
        }
        Reply reply = server.post("/push/batch", batch.append(']').toString());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        reply.data().forEach(id -> ids.add(id.asString()));
        ids.sort((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
        return ids;
    }

    private static List<String> notes(String id) {
        List<String> notes = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            notes.clear();
            server.get("/job/" + id).data().get("history").forEach(step -> notes.add(step.get("note").asString()));
            assertThat(notes).contains("run-now by anonymous");
        });
        return notes;
    }

    private static Reply reply(java.net.http.HttpResponse<String> response) {
        return new Reply(response.statusCode(), response.body());
    }

    /** The access type, key and extra of the first table of the plan. */
    private static long delayedRows(String topicPrefix) throws SQLException {
        try (Connection connection = db.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM sdmq_message WHERE status = 'DELAY' AND "
                     + "topic LIKE '" + topicPrefix + "%'")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static List<String> explain(String sql) throws SQLException {
        try (Connection connection = db.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE TABLE sdmq_message");
            try (ResultSet plan = statement.executeQuery("EXPLAIN " + sql)) {
                plan.next();
                return List.of(String.valueOf(plan.getString("type")), String.valueOf(plan.getString("key")),
                        String.valueOf(plan.getString("Extra")));
            }
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String topic() {
        return "ops-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }
}
