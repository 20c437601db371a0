package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests to the ouqiang routes in the shapes its README documents, and what their replies must be. */
final class OuqiangCalls {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What no reply may leak: class and package names, stack traces, SQL. */
    private static final List<String> INTERNALS = List.of("java.", "io.sdmq", "org.springframework", "tools.jackson",
            "Exception", "\tat ", "SELECT", "sdmq_message");

    private OuqiangCalls() {
    }

    /** The README's push, {@code {topic, id, delay, ttr, body}}, with these values. */
    static String push(String topic, String id, long delaySeconds, long ttrSeconds, String body) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("topic", topic);
        job.put("id", id);
        job.put("delay", delaySeconds);
        job.put("ttr", ttrSeconds);
        job.put("body", body);
        return JSON.writeValueAsString(job);
    }

    static String topic(String topic) {
        return JSON.writeValueAsString(Map.of("topic", topic));
    }

    static String id(String id) {
        return JSON.writeValueAsString(Map.of("id", id));
    }

    /** Asserts a success, as ouqiang answers one: HTTP 200, code 0; the reply. */
    static JsonNode ok(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode json = reply.json();
        assertThat(json.get("code").asInt()).as(reply.body()).isZero();
        assertThat(json.get("message").isString()).as(reply.body()).isTrue();
        assertThat(json.has("data")).as(reply.body()).isTrue();
        return json;
    }

    /** Asserts a failure, as ouqiang answers one: HTTP 200, code 1, null data, a message leaking nothing; it. */
    static String failed(Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        for (String internal : INTERNALS) {
            assertThat(reply.body()).as("the reply leaks internals").doesNotContain(internal);
        }
        JsonNode json = reply.json();
        assertThat(json.get("code").asInt()).as(reply.body()).isEqualTo(1);
        assertThat(json.get("data").isNull()).as(reply.body()).isTrue();
        return json.get("message").asString();
    }

    /** The sdmq ids of the messages holding a business key in a topic, from MySQL. */
    static List<Long> sdmqIds(DataSource rows, String topic, String bizKey) {
        List<Long> ids = new ArrayList<>();
        try (Connection c = rows.getConnection(); PreparedStatement s = c.prepareStatement(
                "SELECT id FROM sdmq_message WHERE topic = ? AND biz_key = ?")) {
            s.setString(1, topic);
            s.setString(2, bizKey);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the messages of " + bizKey, e);
        }
        return ids;
    }
}
