package io.sdmq.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;

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
        long[] moved = new long[0];
        long[] popped = new long[0];
        int movedCount = 0;
        int poppedCount = 0;
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
             PreparedStatement query = connection.prepareStatement(SQL)) {
            query.setString(1, topic);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    long micros = rows.getLong(2);
                    if (rows.getString(1).equals("READY")) {
                        moved = grow(moved, movedCount);
                        moved[movedCount++] = micros;
                    } else {
                        popped = grow(popped, poppedCount);
                        popped[poppedCount++] = micros;
                    }
                }
            }
        }
        put(result, "serverMoved", Arrays.copyOf(moved, movedCount));
        put(result, "serverPopped", Arrays.copyOf(popped, poppedCount));
    }

    private static long[] grow(long[] values, int used) {
        return used < values.length ? values : Arrays.copyOf(values, Math.max(1_024, 2 * values.length));
    }

    private static void put(Map<String, Object> result, String name, long[] micros) {
        Arrays.sort(micros);
        result.put(name + "Count", micros.length);
        result.put(name + "P50Ms", Tracker.millis(Tracker.percentile(micros, 0.50)));
        result.put(name + "P99Ms", Tracker.millis(Tracker.percentile(micros, 0.99)));
    }
}
