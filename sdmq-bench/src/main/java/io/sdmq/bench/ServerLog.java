package io.sdmq.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * Where a workload's lateness arises, as the server's own status log records it: for each message of a topic, the
 * time it first became READY (the scheduler moved it) and first RESERVED (a consumer's pop took it), each minus its
 * due time. What the consumers measure beyond the pop is the reply's way back to them.
 */
final class ServerLog {
    private static final String SQL = """
            SELECT l.to_status, TIMESTAMPDIFF(MICROSECOND, m.due_time, MIN(l.changed_at))
            FROM sdmq_message m JOIN sdmq_message_log l ON l.message_id = m.id
            WHERE m.topic = ? AND l.to_status IN ('READY', 'RESERVED')
            GROUP BY m.id, l.to_status""";

    private ServerLog() {
    }

    /** Adds the p50 and p99 of the move and the pop lateness of topic's messages, in ms, to result. */
    static void lateness(String jdbcUrl, String user, String password, String topic, Map<String, Object> result)
            throws SQLException {
        LongStream.Builder moved = LongStream.builder();
        LongStream.Builder popped = LongStream.builder();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
             PreparedStatement query = connection.prepareStatement(SQL)) {
            query.setString(1, topic);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    (rows.getString(1).equals("READY") ? moved : popped).add(rows.getLong(2));
                }
            }
        }
        put(result, "serverMoved", moved.build().toArray());
        put(result, "serverPopped", popped.build().toArray());
    }

    private static void put(Map<String, Object> result, String name, long[] micros) {
        Arrays.sort(micros);
        result.put(name + "Count", micros.length);
        result.put(name + "P50Ms", Tracker.millis(Tracker.percentile(micros, 0.50)));
        result.put(name + "P99Ms", Tracker.millis(Tracker.percentile(micros, 0.99)));
    }
}
