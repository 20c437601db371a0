package io.sdmq.core.mysql;

import java.time.LocalDateTime;
import java.util.List;

/**
 * The SQL of a batch's status changes and its commit, as one multi-statement (the driver's {@code allowMultiQueries}),
 * so no row lock is held while the client is away: first the lock of the messages' rows in id order when the batch
 * has one, then each change, then {@code COMMIT}. When a statement fails the server runs none after it, so nothing is
 * committed and the caller rolls back; the commit the caller sends after a success finds nothing to do.
 * <p>
 * A change moves the status of its messages unless a row changed later than the change, or is terminal; a requeue
 * leaves DEAD or EXPIRED only when the row is still in the status it was requeued from. Attempts and due time are
 * set first, since assignments run left to right and theirs read the row's time before this update. A change with
 * {@code timed} gives each message its own time, in its guard and as its update time.
 * <p>
 * Every value here is an id, a status name or a time that the engine made, never text from a client, so the values
 * are written as literals: rendering them costs a fraction of binding them as parameters through MyBatis's dynamic
 * SQL, which was a tenth of the server's CPU in W1 (BENCHMARKS.md). Portable between MySQL 8.0+ and MariaDB 10.6+.
 */
final class MoveStatement {
    private static final String NOT_TERMINAL = " AND (status NOT IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED')";

    private MoveStatement() {
    }

    static String render(StatusChanges.Batch batch) {
        StringBuilder sql = new StringBuilder(128 + 160 * batch.changes().size());
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
