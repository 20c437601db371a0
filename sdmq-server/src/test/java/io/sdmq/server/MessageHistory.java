package io.sdmq.server;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Prints a message's row and its status log from a test database, to explain a failed fault test. */
final class MessageHistory {
    /** A message's log rows in the order /job gives them: by time, a terminal status last within its millisecond. */
    private static final String IN_ORDER =
            " ORDER BY changed_at, to_status IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED'), id";

    private MessageHistory() {
    }

    /** The statuses a message went through, from its log, in order. */
    static List<String> statuses(DataSource dataSource, String id) throws SQLException {
        List<String> statuses = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT to_status FROM sdmq_message_log WHERE message_id = ?" + IN_ORDER)) {
            s.setLong(1, Long.parseLong(id));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    statuses.add(rs.getString(1));
                }
            }
        }
        return statuses;
    }

    /** The row of each id in {@code sdmq_message} and its rows in {@code sdmq_message_log}, as text. */
    static String of(DataSource dataSource, Collection<String> ids) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection c = dataSource.getConnection();
             PreparedStatement row = c.prepareStatement("SELECT status, attempts, due_time, create_time, update_time"
                     + " FROM sdmq_message WHERE id = ?");
             PreparedStatement log = c.prepareStatement("SELECT from_status, to_status, changed_at, bucket, host,"
                     + " thread, note FROM sdmq_message_log WHERE message_id = ?" + IN_ORDER)) {
            for (String id : ids) {
                out.append("message ").append(id).append(": ");
                row.setLong(1, Long.parseLong(id));
                try (ResultSet rs = row.executeQuery()) {
                    out.append(rs.next() ? String.format("status %s, attempts %d, due %s, created %s, updated %s",
                            rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5))
                            : "no row").append('\n');
                }
                log.setLong(1, Long.parseLong(id));
                try (ResultSet rs = log.executeQuery()) {
                    while (rs.next()) {
                        out.append(String.format("  %s -> %s at %s, bucket %s, host %s, thread %s, note %s%n",
                                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                                rs.getString(6), rs.getString(7)));
                    }
                }
            }
        }
        return out.toString();
    }

    /** How many messages have a log row that meets {@code condition}, e.g. {@code "note = 'found in Redis'"}. */
    static int withLogRow(DataSource dataSource, String condition) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement(
                     "SELECT COUNT(DISTINCT message_id) FROM sdmq_message_log WHERE " + condition);
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * Ids of the messages whose log has a move back into the schedule (to DELAY, READY or RESERVED) that happened
     * after the message was FINISHED: a finished message that came back, by the server's own record.
     */
    static List<String> scheduledAfterFinished(DataSource dataSource) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT DISTINCT l.message_id FROM sdmq_message_log l"
                     + " JOIN sdmq_message_log f ON f.message_id = l.message_id AND f.to_status = 'FINISHED'"
                     + " WHERE l.to_status IN ('DELAY', 'READY', 'RESERVED') AND l.changed_at > f.changed_at"
                     + " ORDER BY l.message_id");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                ids.add(Long.toString(rs.getLong(1)));
            }
        }
        return ids;
    }
}
