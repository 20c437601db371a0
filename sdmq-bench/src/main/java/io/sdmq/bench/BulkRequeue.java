package io.sdmq.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * W7, an operator's bulk requeue: puts N DEAD messages of one topic straight into the server's MySQL, as their last
 * attempt would have left them a minute ago, then times {@code POST /messages/requeue} for the topic (sent again while
 * it answers 503, which leaves what it changed changed), with the CPU seconds of the processes given by --*-pid over
 * the requeue alone, and counts the messages still DEAD and those gone from MySQL; then purges the topic, so that
 * nothing it requeued is left for a later workload. Needs --server-db.
 */
final class BulkRequeue {
    private static final int ROWS_PER_INSERT = 1_000;
    /** Above every snowflake id the server makes, so the preloads never take one of its ids. */
    private static final long FIRST_ID = 9_000_000_000_000_000_000L;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DateTimeFormatter DATETIME_3 = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    private BulkRequeue() {
    }

    static Map<String, Object> run(WorkloadOptions options, ProcessCpu cpu, int messages, String tag)
            throws SQLException, IOException, InterruptedException {
        if (options.serverDb().isEmpty()) {
            throw new IllegalArgumentException("W7 needs --server-db, the server's database");
        }
        String topic = "bench-W7-" + tag;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", "W7");
        result.put("messages", messages);
        long preloadStart = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(options.serverDb(), options.dbUser(),
                options.dbPassword())) {
            preloadDead(connection, topic, messages);
            result.put("preloadSeconds", Workloads.round3((System.nanoTime() - preloadStart) / 1e9));
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest requeue = HttpRequest.newBuilder(URI.create(options.url() + "/messages/requeue"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"topic\":\"" + topic + "\"}")).build();
            Map<String, Long> ticks = cpu.ticks();
            long started = System.nanoTime();
            Sent sent = untilDone(http, requeue, messages);
            double seconds = (System.nanoTime() - started) / 1e9;
            cpu.putSince(ticks, "requeue", result);
            long changed = sent.changed();
            long stillDead = count(connection, topic, "DEAD");
            // rows of the topic gone from MySQL (the retention's, were they older than it) would otherwise show only
            // as requeued messages short of the count
            long missing = messages - count(connection, topic, null);
            result.put("requeueCalls", sent.calls());
            result.put("requeueUnavailable", sent.unavailable());
            result.put("requeued", changed);
            result.put("stillDead", stillDead);
            result.put("missing", missing);
            result.put("requeueSeconds", Workloads.round3(seconds));
            result.put("requeueRate", Math.round(changed / seconds));
            result.put("valid", changed == messages && stillDead == 0 && missing == 0);
            // the requeued messages are due now: deleted, so that they are not left for a later workload's restore
            HttpRequest purge = HttpRequest.newBuilder(URI.create(options.url() + "/topics/" + topic + "/purge"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build();
            result.put("purged", untilDone(http, purge, messages).changed());
        }
        return result;
    }

    /**
     * Sends a bulk call until it changes nothing more or has changed {@code messages} in all, again while it answers
     * 503 (what it changed stays changed).
     */
    private static Sent untilDone(HttpClient http, HttpRequest call, int messages)
            throws IOException, InterruptedException {
        long changed = 0;
        int unavailable = 0;
        for (int calls = 1; ; calls++) {
            HttpResponse<String> reply = http.send(call, HttpResponse.BodyHandlers.ofString());
            if (reply.statusCode() == 503) {
                // what that call changed is not in its answer: the count falls short and the run is not valid
                unavailable++;
                continue;
            }
            if (reply.statusCode() != 200) {
                throw new IOException(call.method() + " " + call.uri().getPath() + " answered "
                        + reply.statusCode() + ": " + reply.body());
            }
            long now = JSON.readTree(reply.body()).path("data").path("changed").asLong();
            changed += now;
            if (now == 0 || changed >= messages) {
                return new Sent(changed, calls, unavailable);
            }
        }
    }

    /** What the calls of one bulk action changed, how many calls it took and how many of them answered 503. */
    private record Sent(long changed, int calls, int unavailable) {
    }

    /**
     * N DEAD rows of the topic in multi-row INSERTs, committed every 10 of them, as if their last attempt had failed
     * a minute ago: rows older than the server's retention (7 days by default) would be the retention's to delete
     * while the requeue runs.
     */
    private static void preloadDead(Connection connection, String topic, int messages) throws SQLException {
        String body = "x".repeat(Workloads.BODY_SIZE);
        String time = "'" + DATETIME_3.format(Instant.now().minusSeconds(60)) + "'";
        long first = FIRST_ID;
        try (Statement max = connection.createStatement();
             ResultSet rows = max.executeQuery("SELECT MAX(id) FROM sdmq_message WHERE id >= " + FIRST_ID)) {
            if (rows.next() && rows.getObject(1) != null) {
                first = rows.getLong(1) + 1;
            }
        }
        connection.setAutoCommit(false);
        try (Statement insert = connection.createStatement()) {
            for (int from = 0; from < messages; from += ROWS_PER_INSERT) {
                StringBuilder sql = new StringBuilder("INSERT INTO sdmq_message (id, topic, biz_key, body, priority, "
                        + "delay_ms, ttr_ms, max_attempts, retry_delays, create_time, due_time, status, attempts, "
                        + "update_time) VALUES ");
                for (int i = from; i < Math.min(messages, from + ROWS_PER_INSERT); i++) {
                    sql.append(i == from ? "" : ",").append('(').append(first + i).append(",'").append(topic)
                            .append("',NULL,'").append(body).append("',0,0,30000,8,NULL,").append(time).append(',')
                            .append(time).append(",'DEAD',8,").append(time).append(')');
                }
                insert.execute(sql.toString());
                if ((from / ROWS_PER_INSERT) % 10 == 9) {
                    connection.commit();
                }
            }
            connection.commit();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** The topic's rows in that status, or in any when it is null. */
    private static long count(Connection connection, String topic, String status) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT COUNT(*) FROM sdmq_message WHERE topic = ?"
                + (status == null ? "" : " AND status = ?"))) {
            query.setString(1, topic);
            if (status != null) {
                query.setString(2, status);
            }
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
