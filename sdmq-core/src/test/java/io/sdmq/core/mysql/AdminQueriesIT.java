package io.sdmq.core.mysql;

import com.zaxxer.hikari.HikariDataSource;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the ops queries of {@code sql/queries/} as a person would in the mysql client: the SET lines with edited
 * values, then the SELECTs, on one connection, against a database filled with known rows (all times UTC).
 */
class AdminQueriesIT {
    private static final Path QUERIES = Path.of("..", "sql", "queries");
    private static final String DAY = "2024-05-01 ";
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private static HikariDataSource dataSource;

    @BeforeAll
    static void fillDatabase() throws SQLException {
        dataSource = (HikariDataSource) TestServices.freshDatabase().dataSource();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            // id, topic, status, attempts, max attempts, created, delay ms,
            // due (moved by a redelivery), ttr ms, updated
            message(s, 101, "order", "FINISHED", 2, 3, "10:00:00.000", 60_000, "10:01:35.250", 30_000, "10:01:40.000");
            message(s, 102, "order", "RESERVED", 1, 3, "10:00:00.000", 120_000, "10:02:00.000", 30_000, "10:02:01.000");
            message(s, 103, "payment", "DELAY", 0, 3, "10:00:00.000", 86_400_000, "2024-05-02 10:00:00.000", 30_000,
                    "10:00:00.010");
            message(s, 104, "payment", "DELAY", 0, 3, "10:00:00.000", 1_800_000, "10:30:00.000", 30_000,
                    "10:00:00.010");
            message(s, 105, "payment", "WAIT_PUT", 0, 3, "11:00:00.000", 60_000, "11:01:00.000", 30_000,
                    "11:00:00.000");
            message(s, 106, "mail", "READY", 0, 3, "11:40:00.000", 600_000, "11:50:00.000", 30_000, "11:50:00.000");
            message(s, 107, "mail", "READY", 0, 3, "11:39:59.999", 600_000, "11:49:59.999", 30_000, "11:49:59.999");
            message(s, 108, "mail", "FINISHED", 1, 3, "10:00:30.000", 60_000, "10:01:30.000", 30_000, "10:01:31.000");
            message(s, 109, "order", "DEAD", 1, 1, "10:00:00.000", 1_000, "10:00:01.000", 30_000, "10:00:31.100");
            message(s, 110, "payment", "EXPIRED", 0, 3, "09:00:00.000", 3_600_000, "10:00:00.000", 30_000,
                    "10:20:00.000");
            message(s, 111, "mail", "DEAD", 1, 1, "10:50:00.000", 300_000, "10:55:00.000", 299_800, "11:00:00.000");
            message(s, 112, "mail", "EXPIRED", 0, 3, "09:00:00.000", 1_800_000, "09:30:00.000", 30_000,
                    "09:59:59.999");

            // Written first, so on the fresh table they get log ids 1 to 8 in this order; the TTR expiry is
            // written last although it happened before the redelivery.
            log(s, 101, null, "WAIT_PUT", "10:00:00.000", null);
            log(s, 101, "WAIT_PUT", "DELAY", "10:00:00.000", null);
            log(s, 101, "DELAY", "READY", "10:01:00.010", null);
            log(s, 101, "READY", "RESERVED", "10:01:00.250", null);
            log(s, 101, "DELAY", "READY", "10:01:35.300", null);
            log(s, 101, "READY", "RESERVED", "10:01:35.400", null);
            log(s, 101, "RESERVED", "FINISHED", "10:01:40.000", null);
            log(s, 101, "RESERVED", "DELAY", "10:01:30.250", "ttr expired");

            log(s, 102, null, "WAIT_PUT", "10:00:00.000", null);
            log(s, 102, "WAIT_PUT", "DELAY", "10:00:00.010", null);
            log(s, 102, "DELAY", "READY", "10:02:00.500", null);
            log(s, 102, "READY", "RESERVED", "10:02:01.000", null);
            for (long id : new long[] {103, 104}) {
                log(s, id, null, "WAIT_PUT", "10:00:00.000", null);
                log(s, id, "WAIT_PUT", "DELAY", "10:00:00.010", null);
            }
            log(s, 105, null, "WAIT_PUT", "11:00:00.000", null);
            log(s, 106, null, "WAIT_PUT", "11:40:00.000", null);
            log(s, 106, "WAIT_PUT", "DELAY", "11:40:00.010", null);
            log(s, 106, "DELAY", "READY", "11:50:00.000", null);
            log(s, 107, null, "WAIT_PUT", "11:39:59.999", null);
            log(s, 107, "WAIT_PUT", "DELAY", "11:40:00.009", null);
            log(s, 107, "DELAY", "READY", "11:49:59.999", null);
            log(s, 108, null, "WAIT_PUT", "10:00:30.000", null);
            log(s, 108, "WAIT_PUT", "DELAY", "10:00:30.010", null);
            log(s, 108, "DELAY", "READY", "10:01:30.000", null);
            log(s, 108, "READY", "RESERVED", "10:01:30.040", null);
            log(s, 108, "RESERVED", "FINISHED", "10:01:31.000", null);
            log(s, 109, null, "WAIT_PUT", "10:00:00.000", null);
            log(s, 109, "WAIT_PUT", "DELAY", "10:00:00.010", null);
            log(s, 109, "DELAY", "READY", "10:00:01.000", null);
            log(s, 109, "READY", "RESERVED", "10:00:01.100", null);
            log(s, 109, "RESERVED", "DEAD", "10:00:31.100", "attempts exhausted");
            log(s, 110, null, "WAIT_PUT", "09:00:00.000", null);
            log(s, 110, "WAIT_PUT", "DELAY", "09:00:00.010", null);
            log(s, 110, "DELAY", "EXPIRED", "10:20:00.000", "overdue at restore");
            log(s, 111, null, "WAIT_PUT", "10:50:00.000", null);
            log(s, 111, "WAIT_PUT", "DELAY", "10:50:00.010", null);
            log(s, 111, "DELAY", "READY", "10:55:00.000", null);
            log(s, 111, "READY", "RESERVED", "10:55:00.200", null);
            log(s, 111, "RESERVED", "DEAD", "11:00:00.000", "attempts exhausted");
            log(s, 112, null, "WAIT_PUT", "09:00:00.000", null);
            log(s, 112, "WAIT_PUT", "DELAY", "09:00:00.010", null);
            log(s, 112, "DELAY", "EXPIRED", "09:59:59.999", "overdue at restore");

            // Topic 'bulk', the next day: 100 messages due at 00:01:00, first delivered 1 to 100 ms late.
            for (int late = 1; late <= 100; late++) {
                long id = 1000 + late;
                message(s, id, "bulk", "FINISHED", 1, 3, "2024-05-02 00:00:00.000", 60_000, "2024-05-02 00:01:00.000",
                        30_000, "2024-05-02 00:01:02.000");
                log(s, id, null, "WAIT_PUT", "2024-05-02 00:00:00.000", null);
                log(s, id, "WAIT_PUT", "DELAY", "2024-05-02 00:00:00.001", null);
                log(s, id, "DELAY", "READY", "2024-05-02 00:01:00.000", null);
                log(s, id, "READY", "RESERVED", "2024-05-02 00:01:00." + String.format("%03d", late), null);
                log(s, id, "RESERVED", "FINISHED", "2024-05-02 00:01:02.000", null);
            }
        }
    }

    @AfterAll
    static void closeDataSource() {
        dataSource.close();
    }

    @Test
    void message_history_lists_the_row_and_every_transition_in_order() throws Exception {
        List<List<String>> results = run("message_history.sql", Map.of("message_id", "101"));

        assertThat(results).hasSize(2);
        assertThat(results.get(0)).containsExactly("101 | order | order-101 | FINISHED | 2 | 3 | 0 | 60000 | 30000"
                + " | NULL | 2024-05-01 10:00:00.000 | 2024-05-01 10:01:35.250 | 2024-05-01 10:01:40.000"
                + " | 19 | body of message 101");
        assertThat(results.get(1)).containsExactly(
                "1 | 2024-05-01 10:00:00.000 | NULL | WAIT_PUT | NULL | sdmq-1 | http-1 | NULL",
                "2 | 2024-05-01 10:00:00.000 | WAIT_PUT | DELAY | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL",
                "3 | 2024-05-01 10:01:00.010 | DELAY | READY | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL",
                "4 | 2024-05-01 10:01:00.250 | READY | RESERVED | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL",
                "8 | 2024-05-01 10:01:30.250 | RESERVED | DELAY | sdmq:bucket:1 | sdmq-1 | journal-1 | ttr expired",
                "5 | 2024-05-01 10:01:35.300 | DELAY | READY | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL",
                "6 | 2024-05-01 10:01:35.400 | READY | RESERVED | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL",
                "7 | 2024-05-01 10:01:40.000 | RESERVED | FINISHED | sdmq:bucket:1 | sdmq-1 | journal-1 | NULL");
    }

    @Test
    void message_history_of_an_unknown_id_is_empty() throws Exception {
        assertThat(run("message_history.sql", Map.of("message_id", "999"))).containsExactly(List.of(), List.of());
    }

    @Test
    void counts_by_topic_and_status_cover_every_message() throws Exception {
        assertThat(run("counts_by_topic_and_status.sql", Map.of())).containsExactly(List.of(
                "bulk | FINISHED | 100",
                "mail | DEAD | 1",
                "mail | EXPIRED | 1",
                "mail | FINISHED | 1",
                "mail | READY | 2",
                "order | DEAD | 1",
                "order | FINISHED | 1",
                "order | RESERVED | 1",
                "payment | DELAY | 2",
                "payment | EXPIRED | 1",
                "payment | WAIT_PUT | 1"));
    }

    @Test
    void stuck_messages_are_those_that_did_not_move_on_in_time() throws Exception {
        // Not listed: 103 waits in DELAY for tomorrow; 106 has been READY for exactly 10 minutes;
        // the rest are terminal.
        assertThat(run("stuck_messages.sql",
                Map.of("older_than_minutes", "10", "now", "'2024-05-01 12:00:00.000'"))).containsExactly(List.of(
                "102 | order | RESERVED | 1 | 2024-05-01 10:02:00.000 | 2024-05-01 10:02:01.000"
                        + " | 2024-05-01 10:02:31.000 | 117",
                "104 | payment | DELAY | 0 | 2024-05-01 10:30:00.000 | 2024-05-01 10:00:00.010"
                        + " | 2024-05-01 10:30:00.000 | 90",
                "105 | payment | WAIT_PUT | 0 | 2024-05-01 11:01:00.000 | 2024-05-01 11:00:00.000"
                        + " | 2024-05-01 11:00:00.000 | 60",
                "107 | mail | READY | 0 | 2024-05-01 11:49:59.999 | 2024-05-01 11:49:59.999"
                        + " | 2024-05-01 11:49:59.999 | 10"));
    }

    @Test
    void stuck_messages_with_a_longer_threshold_leave_out_the_recent_ones() throws Exception {
        assertThat(run("stuck_messages.sql",
                Map.of("older_than_minutes", "100", "now", "'2024-05-01 12:00:00.000'"))).containsExactly(List.of(
                "102 | order | RESERVED | 1 | 2024-05-01 10:02:00.000 | 2024-05-01 10:02:01.000"
                        + " | 2024-05-01 10:02:31.000 | 117"));
    }

    @Test
    void dead_and_expired_lists_those_that_ended_in_the_range_with_their_reason() throws Exception {
        // Not listed: 111 died exactly at @to, 112 expired a millisecond before @from.
        assertThat(run("dead_and_expired.sql",
                Map.of("from", "'2024-05-01 10:00:00'", "to", "'2024-05-01 11:00:00'"))).containsExactly(List.of(
                "109 | order | order-109 | DEAD | 1 | 1 | 2024-05-01 10:00:00.000 | 2024-05-01 10:00:01.000"
                        + " | 2024-05-01 10:00:31.100 | attempts exhausted",
                "110 | payment | payment-110 | EXPIRED | 0 | 3 | 2024-05-01 09:00:00.000 | 2024-05-01 10:00:00.000"
                        + " | 2024-05-01 10:20:00.000 | overdue at restore"));
    }

    @Test
    void lateness_per_topic_measures_first_deliveries_against_the_original_due_time() throws Exception {
        // order: 101 is 250 ms late (its redelivery and its moved due_time do not count), 102 1000 ms, 109 100 ms.
        assertThat(run("lateness_per_topic.sql",
                Map.of("from", "'2024-05-01 00:00:00'", "to", "'2024-05-03 00:00:00'"))).containsExactly(List.of(
                "bulk | 100 | 50.5 | 50 | 99 | 100",
                "mail | 2 | 120.0 | 40 | 200 | 200",
                "order | 3 | 450.0 | 250 | 1000 | 1000"));
    }

    @Test
    void lateness_per_topic_leaves_out_redeliveries_of_messages_first_delivered_before_the_range() throws Exception {
        // 101 is redelivered at 10:01:35.400, inside the range, but was first delivered at 10:01:00.250.
        assertThat(run("lateness_per_topic.sql",
                Map.of("from", "'2024-05-01 10:01:30'", "to", "'2024-05-01 11:00:00'"))).containsExactly(List.of(
                "mail | 2 | 120.0 | 40 | 200 | 200",
                "order | 1 | 1000.0 | 1000 | 1000 | 1000"));
    }

    @Test
    void throughput_per_minute_counts_pushes_deliveries_and_finishes() throws Exception {
        assertThat(run("throughput_per_minute.sql",
                Map.of("from", "'2024-05-01 10:00:00'", "to", "'2024-05-01 10:03:00'"))).containsExactly(List.of(
                "2024-05-01 10:00 | 6 | 1 | 0",
                "2024-05-01 10:01 | 0 | 3 | 2",
                "2024-05-01 10:02 | 0 | 1 | 0"));
    }

    private static void message(Statement s, long id, String topic, String status, int attempts, int maxAttempts,
                                String created, long delayMs, String due, long ttrMs, String updated)
            throws SQLException {
        s.executeUpdate("INSERT INTO sdmq_message (id, topic, biz_key, body, priority, delay_ms, ttr_ms, max_attempts,"
                + " retry_delays, create_time, due_time, status, attempts, update_time) VALUES (" + id + ", '" + topic
                + "', '" + topic + "-" + id + "', 'body of message " + id + "', 0, " + delayMs + ", " + ttrMs + ", "
                + maxAttempts + ", NULL, '" + at(created) + "', '" + at(due) + "', '" + status + "', " + attempts
                + ", '" + at(updated) + "')");
    }

    /** A log row as the server writes it: the first by the HTTP thread without a bucket, the rest by the journal. */
    private static void log(Statement s, long messageId, String from, String to, String changedAt, String note)
            throws SQLException {
        s.executeUpdate("INSERT INTO sdmq_message_log (message_id, from_status, to_status, changed_at, bucket, host,"
                + " thread, note) VALUES (" + messageId + ", " + quoted(from) + ", '" + to + "', '" + at(changedAt)
                + "', " + (from == null ? "NULL, 'sdmq-1', 'http-1'" : "'sdmq:bucket:1', 'sdmq-1', 'journal-1'")
                + ", " + quoted(note) + ")");
    }

    private static String at(String time) {
        return time.length() > 12 ? time : DAY + time;
    }

    private static String quoted(String value) {
        return value == null ? "NULL" : "'" + value + "'";
    }

    /**
     * Runs a query file with its {@code SET @name = ...;} lines given new values (SQL literals); answers one list
     * of rows per SELECT, each row its columns joined by " | ".
     */
    private static List<List<String>> run(String file, Map<String, String> values) throws IOException, SQLException {
        String text = Files.readString(QUERIES.resolve(file));
        for (Map.Entry<String, String> value : values.entrySet()) {
            text = withValue(text, value.getKey(), value.getValue());
        }
        List<List<String>> results = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            // MySQL 8's default mode, stricter than MariaDB's (ONLY_FULL_GROUP_BY), so the files stay portable
            s.execute("SET SESSION sql_mode = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                    + "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'");
            for (String sql : statements(text)) {
                if (s.execute(sql)) {
                    try (ResultSet rows = s.getResultSet()) {
                        results.add(rows(rows));
                    }
                }
            }
        }
        return results;
    }

    private static String withValue(String text, String name, String value) {
        Matcher line = Pattern.compile("(?m)^SET @" + name + " = .*;$").matcher(text);
        assertThat(line.find()).as("a line 'SET @%s = ...;'", name).isTrue();
        return line.replaceFirst(Matcher.quoteReplacement("SET @" + name + " = " + value + ";"));
    }

    /** The statements as the mysql client sees them: comments dropped, split at a ';' that ends a line. */
    private static List<String> statements(String text) {
        String withoutComments = text.replaceAll("(?m)--.*$", "");
        return Pattern.compile("(?m);\\s*$").splitAsStream(withoutComments)
                .map(String::strip)
                .filter(sql -> !sql.isEmpty())
                .toList();
    }

    private static List<String> rows(ResultSet rows) throws SQLException {
        int columns = rows.getMetaData().getColumnCount();
        List<String> result = new ArrayList<>();
        while (rows.next()) {
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                Object value = rows.getObject(i);
                if (value == null) {
                    values.add("NULL");
                } else {
                    values.add(value instanceof LocalDateTime time ? MILLIS.format(time) : value.toString());
                }
            }
            result.add(String.join(" | ", values));
        }
        return result;
    }
}
