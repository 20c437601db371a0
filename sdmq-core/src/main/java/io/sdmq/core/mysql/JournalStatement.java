package io.sdmq.core.mysql;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;

/**
 * The SQL of a batch of transitions and its commit, as one multi-statement (the driver's {@code allowMultiQueries}),
 * so no row lock is held while the client is away: first the log rows, then the lock of the messages' rows in id order
 * when the batch has one, then each status change, then {@code COMMIT}. When a statement fails the server runs none after it, so nothing is
 * committed and the caller rolls back; the commit the caller sends after a success finds nothing to do.
 * <p>
 * A change moves the status of its messages unless a row changed later than the change, or is terminal; a requeue
 * leaves DEAD or EXPIRED only when the row is still in the status it was requeued from. Attempts and due time are
 * set first, since assignments run left to right and theirs read the row's time before this update. A change with
 * {@code timed} gives each message its own time, in its guard and as its update time.
 * <p>
 * Values are written as literals: rendering them costs a fraction of binding them as parameters through MyBatis and
 * the driver, which took a tenth of the server's CPU in W1 (BENCHMARKS.md), and the whole batch is one round trip.
 * Ids, status names and times are the engine's own; free text (bucket, host, thread, note) is quoted as it is when it
 * is printable ASCII without quote or backslash, else written as a hex literal, which reads the same whatever the
 * server's {@code sql_mode}. Run it with escape processing off: a bucket's name holds braces. Portable between
 * MySQL 8.0+ and MariaDB 10.6+.
 */
final class JournalStatement {
    private static final String NOT_TERMINAL = " AND (status NOT IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED')";

    private JournalStatement() {
    }

    static String render(List<LogRow> logs, StatusChanges.Batch batch) {
        StringBuilder sql = new StringBuilder(256 + 160 * logs.size() + 160 * batch.changes().size());
        sql.append("INSERT INTO sdmq_message_log (message_id, from_status, to_status, changed_at, bucket, host, thread,"
                + " note) VALUES ");
        for (int i = 0; i < logs.size(); i++) {
            LogRow row = logs.get(i);
            sql.append(i == 0 ? "(" : ",(").append(row.messageId()).append(',');
            text(sql, row.fromStatus()).append(',');
            text(sql, row.toStatus()).append(',');
            time(sql, row.changedAt()).append(',');
            text(sql, row.bucket()).append(',');
            text(sql, row.host()).append(',');
            text(sql, row.thread()).append(',');
            text(sql, row.note()).append(')');
        }
        sql.append(';');
        if (!batch.lockIds().isEmpty()) {
            sql.append("SELECT id FROM sdmq_message WHERE id IN ");
            ids(sql, batch.lockIds()).append(" ORDER BY id FOR UPDATE;");
        }
        for (StatusChange c : batch.changes()) {
            sql.append("UPDATE sdmq_message SET ");
            if (c.timed() != null) {
                sql.append("status = '").append(c.toStatus()).append("', update_time =");
                timeOfId(sql, c.timed()).append(" WHERE id IN ");
                ids(sql, c.ids()).append(" AND update_time <=");
                timeOfId(sql, c.timed());
            } else {
                if (c.attempts() != null) {
                    time(sql.append("attempts = CASE WHEN update_time <= "), c.attemptsAt())
                            .append(" THEN ").append(c.attempts().intValue()).append(" ELSE attempts END, ");
                }
                if (c.dueTime() != null) {
                    time(time(sql.append("due_time = CASE WHEN update_time <= "), c.dueTimeAt()).append(" THEN "),
                            c.dueTime()).append(" ELSE due_time END, ");
                }
                time(sql.append("status = '").append(c.toStatus()).append("', update_time = "), c.changedAt());
                ids(sql.append(" WHERE id IN "), c.ids());
                time(sql.append(" AND update_time <= "), c.changedAt());
            }
            sql.append(NOT_TERMINAL);
            if (c.fromStatus() != null) {
                sql.append(" OR (status IN ('DEAD', 'EXPIRED') AND status = '").append(c.fromStatus()).append("')");
            }
            sql.append(");");
        }
        return sql.append("COMMIT").toString();
    }

    private static StringBuilder ids(StringBuilder sql, List<Long> ids) {
        sql.append('(');
        for (int i = 0; i < ids.size(); i++) {
            sql.append(i == 0 ? "" : ",").append(ids.get(i).longValue());
        }
        return sql.append(')');
    }

    private static StringBuilder text(StringBuilder sql, String value) {
        if (value == null) {
            return sql.append("NULL");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' || c > '~' || c == '\'' || c == '\\') {
                return sql.append("_utf8mb4 X'").append(HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8)))
                        .append('\'');
            }
        }
        return sql.append('\'').append(value).append('\'');
    }

    /** Each message's own time: {@code CASE id WHEN … THEN … END}. */
    private static StringBuilder timeOfId(StringBuilder sql, List<StatusChange.Timed> timed) {
        sql.append(" CASE id");
        for (StatusChange.Timed t : timed) {
            time(sql.append(" WHEN ").append(t.id()).append(" THEN "), t.at());
        }
        return sql.append(" END");
    }

    /** A UTC time as a DATETIME(3) literal, {@code 'uuuu-MM-dd HH:mm:ss.SSS'} (see {@link UtcDateTimeTypeHandler}). */
    private static StringBuilder time(StringBuilder sql, LocalDateTime t) {
        sql.append('\'').append(t.getYear()).append('-');
        two(sql, t.getMonthValue()).append('-');
        two(sql, t.getDayOfMonth()).append(' ');
        two(sql, t.getHour()).append(':');
        two(sql, t.getMinute()).append(':');
        two(sql, t.getSecond()).append('.');
        int ms = t.getNano() / 1_000_000;
        return sql.append((char) ('0' + ms / 100)).append((char) ('0' + ms / 10 % 10)).append((char) ('0' + ms % 10))
                .append('\'');
    }

    private static StringBuilder two(StringBuilder sql, int value) {
        return sql.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
