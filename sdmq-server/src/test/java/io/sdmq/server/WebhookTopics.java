package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.server.WebhookReceiver.Answer;
import io.sdmq.server.WebhookReceiver.Received;
import io.sdmq.testing.TestServices.TestDatabase;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** What the webhook tests share: topic settings over HTTP, pushes, secrets, and what MySQL recorded. */
final class WebhookTopics {
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookTopics() {
    }

    static String topic(String name) {
        return "wh-" + name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }

    /** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
    static String secret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    /** PUT /topics/{topic} with that JSON body. */
    static Reply put(RunningServer server, String topic, String json) {
        var response = server.http().send("PUT", "/topics/" + topic, null, json);
        return new Reply(response.statusCode(), response.body());
    }

    /** Sets the topic's retries and its webhook delivery ({@code extra}: more delivery fields, each after a comma). */
    static void webhook(RunningServer server, String topic, String policy, String url, String secret, String extra) {
        Reply reply = put(server, topic, "{" + policy + "\"delivery\":{\"type\":\"webhook\",\"url\":\"" + url
                + "\",\"secrets\":[\"" + secret + "\"]" + extra + "}}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    static String push(RunningServer server, String topic, String body) {
        Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":" + JsonQuote.of(body)
                + ",\"delay\":0}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    /** Answers what {@code first} makes to the first request of each message, 200 to the next ones. */
    static Function<Received, Answer> firstThenOk(Supplier<Answer> first) {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        return r -> seen.computeIfAbsent(r.header("webhook-id"), id -> new AtomicInteger()).incrementAndGet() == 1
                ? first.get() : Answer.ok();
    }

    /** The message's status in MySQL. */
    static String status(TestDatabase db, String id) {
        List<String> found = strings(db, "SELECT status FROM sdmq_message WHERE id = ?", id);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The notes of the message's moves out of RESERVED, in order. */
    static List<String> failureNotes(TestDatabase db, String id) {
        return strings(db, "SELECT note FROM sdmq_message_log WHERE message_id = ? AND from_status = 'RESERVED'"
                + " AND to_status IN ('DELAY', 'DEAD') ORDER BY changed_at, id", id);
    }

    /** How many messages of the topic have that status in MySQL. */
    static long count(TestDatabase db, String topic, String status) {
        List<String> found = strings(db, "SELECT COUNT(*) FROM sdmq_message WHERE topic = ? AND status = '" + status
                + "'", topic);
        return Long.parseLong(found.get(0));
    }

    private static List<String> strings(TestDatabase db, String sql, String parameter) {
        try (Connection c = db.connection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            List<String> values = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
