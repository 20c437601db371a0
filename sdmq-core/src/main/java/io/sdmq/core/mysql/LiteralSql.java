package io.sdmq.core.mysql;

import cn.hutool.core.collection.ListUtil;
import io.sdmq.common.MessageStatus;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Renders the frequent writes, new messages and status changes with their status log rows, as SQL text with every
 * value a literal: rendering them costs a fraction of binding them as parameters through MyBatis and the driver,
 * which took a tenth of the server's CPU in W1 (BENCHMARKS.md), and a batch's statements travel as one
 * multi-statement (the driver's {@code allowMultiQueries}) in one round trip. Portable between MySQL 8.0+ and
 * MariaDB 10.6+; run the text with escape processing off, since a bucket's name holds braces.
 * <p>
 * Ids, numbers, status names and times are the engine's own and need no escaping. Text (topic, key, body, retry
 * delays, bucket, host, thread, note) is written so that it reads the same whatever the session's settings:
 * <ul>
 * <li>printable ASCII without {@code '} or {@code \} is quoted as it is, which every {@code sql_mode} and ASCII-based
 * {@code character_set_client} reads alike ({@code "} is no delimiter inside single quotes, even with
 * {@code ANSI_QUOTES});
 * <li>any other text is a hex literal of its UTF-8 bytes with the {@code _utf8mb4} introducer. Escaping it instead
 * would depend on the session: under {@code NO_BACKSLASH_ESCAPES} a backslash is an ordinary character, so
 * {@code \'} ends the string and {@code \\} stays two backslashes, while without it both are escapes; and the
 * mode can be changed by a {@code SET} the client never sees. A hex literal has no escapes, and its bytes do not pass
 * through {@code character_set_client}, so NUL, control characters and 4-byte UTF-8 arrive as they were.
 * </ul>
 * A lone UTF-16 surrogate, which no UTF-8 text can hold, is written as {@code ?}, as the driver does with bound text.
 */
final class LiteralSql {
    private static final String INSERT_MESSAGES = "INSERT INTO sdmq_message (id, topic, biz_key, body, priority,"
            + " delay_ms, ttr_ms, max_attempts, retry_delays, create_time, due_time, status, attempts, update_time)"
            + " VALUES ";
    private static final String INSERT_STATUS_LOG = "INSERT INTO sdmq_message_log (message_id, from_status, to_status,"
            + " changed_at, bucket, host, thread, note) VALUES ";
    /** Most messages one statement of a purge deletes; see {@link #deleteStatusLogRows}. */
    private static final int PURGE_IDS = 20;
    private static final String TERMINAL = quoted(Statuses.TERMINAL);
    private static final String NOT_TERMINAL = " AND (status NOT IN " + TERMINAL;
    /**
     * No status log row of the message leaves DEAD or EXPIRED (a requeue) later than the time that follows; read only
     * for a row changed later than the change, on the message's own log rows (the time's index would read every row
     * logged since).
     */
    private static final String REQUEUED_AFTER = " OR NOT EXISTS (SELECT 1 FROM sdmq_message_log r"
            + " FORCE INDEX (idx_sdmq_message_log_message_id) WHERE r.message_id = sdmq_message.id"
            + " AND r.from_status IN " + quoted(Statuses.REQUEUED_FROM) + " AND r.changed_at >";

    private LiteralSql() {
    }

    private static String quoted(Set<MessageStatus> statuses) {
        return statuses.stream().map(status -> "'" + status + "'").collect(Collectors.joining(", ", "(", ")"));
    }

    /**
     * New messages and their first status log rows ({@code logRows.get(i)} is the row of {@code messages.get(i)}) and
     * what ends their transaction: multi-statements of two multi-row INSERTs each, cut so that each stays within about
     * {@code maxChars} unless a single message is larger, the last one followed by {@code end} (statements ending in
     * {@code COMMIT}). When a statement fails the server runs none after it, so nothing is committed and the caller
     * rolls back.
     */
    static List<String> insertAll(List<MessageRow> messages, List<StatusLogRow> logRows, int maxChars, String end) {
        List<String> statements = new ArrayList<>();
        StringBuilder values = new StringBuilder();
        StringBuilder logValues = new StringBuilder();
        for (int i = 0; i < messages.size(); i++) {
            if (!values.isEmpty() && values.length() + logValues.length() > maxChars) {
                statements.add(inserts(values, logValues).toString());
                values.setLength(0);
                logValues.setLength(0);
            }
            message(values.append(values.isEmpty() ? "" : ","), messages.get(i));
            statusLogRow(logValues.append(logValues.isEmpty() ? "" : ","), logRows.get(i));
        }
        if (!values.isEmpty()) {
            statements.add(inserts(values, logValues).append(';').append(end).toString());
        }
        return statements;
    }

    /** One message and its first status log row, as {@link #insertAll} renders them, without the commit. */
    static String insert(MessageRow message, StatusLogRow logRow) {
        return inserts(message(new StringBuilder(), message), statusLogRow(new StringBuilder(), logRow)).toString();
    }

    private static StringBuilder inserts(CharSequence values, CharSequence logValues) {
        return new StringBuilder(INSERT_MESSAGES.length() + values.length() + INSERT_STATUS_LOG.length()
                + logValues.length() + 8)
                .append(INSERT_MESSAGES).append(values).append(';').append(INSERT_STATUS_LOG).append(logValues);
    }

    static String insertStatusLogRows(List<StatusLogRow> logRows) {
        return statusLogInsert(logRows).toString();
    }

    /** The multi-row INSERT of status log rows, in a builder that statements can follow. */
    private static StringBuilder statusLogInsert(List<StatusLogRow> logRows) {
        StringBuilder sql = new StringBuilder(INSERT_STATUS_LOG.length() + 160 * logRows.size())
                .append(INSERT_STATUS_LOG);
        for (int i = 0; i < logRows.size(); i++) {
            statusLogRow(sql.append(i == 0 ? "" : ","), logRows.get(i));
        }
        return sql;
    }

    /**
     * A batch of transitions and its commit, so no row lock is held while the client is away: first their status log
     * rows, then the lock of the messages' rows in id order when the batch has one, then each status change, then
     * {@code COMMIT}. Each statement names at most {@link StatusChanges#MAX_IDS} ids and looks its rows up by
     * primary key even where the optimizer would rather scan, so it locks its own rows and no others. When a
     * statement fails the server runs none after it, so nothing is committed and the caller rolls back.
     * <p>
     * A change moves the status of its messages unless a row changed later than the change, or is terminal; a
     * requeue leaves a terminal status ({@link Statuses#REQUEUED_FROM}) only when the row is still in the status it
     * was requeued from. A change that ends a message's life (from a pending status to one of
     * {@link Statuses#ENDED_IN_REDIS}) also moves a row that changed later, unless a requeue since began another life:
     * such a transition is the last of its life in Redis, and the later time of a pending one comes from another
     * instance's clock read on the other side of its script (a move timed after a pop and finish that came after it),
     * so the row would stay pending for good and the message be restored once its id left the bucket's gone set.
     * Attempts and due time are set first, since assignments run left to right and theirs read the row's time before
     * this update. A change with {@code timed} gives each message its own time, in its guard and as its update time.
     */
    static String transitions(List<StatusLogRow> logRows, StatusChanges.Batch batch) {
        StringBuilder sql = statusLogInsert(logRows).append(';');
        for (List<Long> chunk : StatusChanges.chunks(batch.lockIds())) {
            sql.append("SELECT id FROM sdmq_message FORCE INDEX (PRIMARY) WHERE id IN ");
            ids(sql, chunk).append(" ORDER BY id FOR UPDATE;");
        }
        for (StatusChange c : batch.changes()) {
            sql.append("UPDATE sdmq_message FORCE INDEX (PRIMARY) SET ");
            boolean endsLife = Statuses.ENDED_IN_REDIS.contains(c.toStatus()) && !c.fromStatus().isTerminal();
            // the change's time: each message's own, or one for all, after a space
            UnaryOperator<StringBuilder> at = c.timed() != null ? text -> timeOfId(text, c.timed())
                    : text -> time(text.append(' '), c.changedAt());
            if (c.attempts() != null) {
                time(sql.append("attempts = CASE WHEN update_time <= "), c.attemptsAt())
                        .append(" THEN ").append(c.attempts().intValue()).append(" ELSE attempts END, ");
            }
            if (c.dueTime() != null) {
                time(time(sql.append("due_time = CASE WHEN update_time <= "), c.dueTimeAt()).append(" THEN "),
                        c.dueTime()).append(" ELSE due_time END, ");
            }
            at.apply(sql.append("status = '").append(c.toStatus()).append("', update_time =")).append(" WHERE id IN ");
            at.apply(ids(sql, c.ids()).append(" AND (update_time <="));
            if (endsLife) {
                at.apply(sql.append(REQUEUED_AFTER)).append(')');
            }
            sql.append(')').append(NOT_TERMINAL);
            if (Statuses.REQUEUED_FROM.contains(c.fromStatus())) {
                sql.append(" OR status = '").append(c.fromStatus()).append('\'');
            }
            sql.append(");");
        }
        return sql.append("COMMIT").toString();
    }

    /**
     * A purge's deletes of the given messages' status log rows ({@link #deleteTerminalMessages} deletes the messages'
     * own rows), each statement for at most {@link #PURGE_IDS} messages. A delete over a large share of a table's rows
     * runs as a scan, even with an index hint, and a scan locks every row and gap it reads, so a push committing
     * meanwhile waits for the purge or deadlocks with it. MariaDB 10.11 scans for 400 of 1 100 status log rows, and
     * counts the rows the transaction already deleted as gone, so the last statements of a purge over most of a table
     * are the risk: with 100 messages a statement a purge of 500 of 800 messages still scanned, with 20 it does not,
     * and costs the same.
     */
    static String deleteStatusLogRows(List<Long> messageIds) {
        return deletes("DELETE FROM sdmq_message_log WHERE message_id IN ", messageIds, "");
    }

    /** A purge's deletes of message rows that are terminal, by primary key; see {@link #deleteStatusLogRows}. */
    static String deleteTerminalMessages(List<Long> ids) {
        return deletes("DELETE m FROM sdmq_message m FORCE INDEX (PRIMARY) WHERE m.id IN ", ids,
                " AND m.status IN " + TERMINAL);
    }

    private static String deletes(String head, List<Long> ids, String tail) {
        StringBuilder sql = new StringBuilder(ids.size() * 21 + 200);
        for (List<Long> chunk : ListUtil.partition(ids, PURGE_IDS)) {
            ids(sql.append(sql.isEmpty() ? "" : ";").append(head), chunk).append(tail);
        }
        return sql.toString();
    }

    private static StringBuilder message(StringBuilder sql, MessageRow m) {
        sql.append('(').append(m.id()).append(',');
        text(sql, m.topic()).append(',');
        text(sql, m.bizKey()).append(',');
        text(sql, m.body()).append(',');
        sql.append(m.priority()).append(',').append(m.delayMs()).append(',').append(m.ttrMs()).append(',')
                .append(m.maxAttempts()).append(',');
        text(sql, m.retryDelays()).append(',');
        time(sql, m.createTime()).append(',');
        time(sql, m.dueTime()).append(',');
        text(sql, m.status()).append(',').append(m.attempts()).append(',');
        return time(sql, m.updateTime()).append(')');
    }

    private static StringBuilder statusLogRow(StringBuilder sql, StatusLogRow row) {
        sql.append('(').append(row.messageId()).append(',');
        text(sql, row.fromStatus()).append(',');
        text(sql, row.toStatus()).append(',');
        time(sql, row.changedAt()).append(',');
        text(sql, row.bucket()).append(',');
        text(sql, row.host()).append(',');
        text(sql, row.thread()).append(',');
        return text(sql, row.note()).append(')');
    }

    private static StringBuilder ids(StringBuilder sql, List<Long> ids) {
        sql.append('(');
        for (int i = 0; i < ids.size(); i++) {
            sql.append(i == 0 ? "" : ",").append(ids.get(i).longValue());
        }
        return sql.append(')');
    }

    /** Text as a literal; see the class's comment. */
    static StringBuilder text(StringBuilder sql, String value) {
        if (value == null) {
            return sql.append("NULL");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' || c > '~' || c == '\'' || c == '\\') {
                return sql.append("_utf8mb4 X'")
                        .append(HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8)))
                        .append('\'');
            }
        }
        return sql.append('\'').append(value).append('\'');
    }

    /** Each message's own time: {@code CASE id WHEN … THEN … END}, the id named so that a subquery reads it too. */
    private static StringBuilder timeOfId(StringBuilder sql, List<StatusChange.Timed> timed) {
        sql.append(" CASE sdmq_message.id");
        for (StatusChange.Timed t : timed) {
            time(sql.append(" WHEN ").append(t.id()).append(" THEN "), t.at());
        }
        return sql.append(" END");
    }

    /** A UTC time as a DATETIME(3) literal: {@link Rows#text} quoted. */
    static StringBuilder time(StringBuilder sql, LocalDateTime t) {
        return sql.append('\'').append(Rows.text(t)).append('\'');
    }
}
