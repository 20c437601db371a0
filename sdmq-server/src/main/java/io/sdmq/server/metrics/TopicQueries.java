package io.sdmq.server.metrics;

import io.sdmq.common.UnavailableException;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What MySQL knows of topics, for the gauges and {@code GET /topics/{topic}/stats}: messages per topic and status,
 * the oldest message that is due and not yet handed out, and the deliveries of the status log. Read-only; every read
 * is one statement. A failure to reach MySQL answers as {@link UnavailableException}.
 */
public final class TopicQueries {
    /** The statuses of a message that is due and not handed out yet, once its due time has passed. */
    private static final String NOT_HANDED_OUT = "('WAIT_PUT', 'DELAY', 'READY')";
    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final JdbcTemplate jdbc;

    TopicQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A topic's messages in one status. */
    record Count(String topic, String status, long messages) {
    }

    /** Messages per topic of every status still in the schedule: found on the {@code (status, due_time)} index. */
    List<Count> scheduledCounts() {
        return read(() -> jdbc.query("""
                SELECT topic, status, COUNT(*) FROM sdmq_message
                WHERE status IN ('WAIT_PUT', 'DELAY', 'READY', 'RESERVED') GROUP BY topic, status""",
                (rs, i) -> new Count(rs.getString(1), rs.getString(2), rs.getLong(3))));
    }

    /** Per topic with a message due at {@code now} and not handed out, how long ago the oldest of them was due. */
    Map<String, Long> oldestDueAges(long now) {
        Map<String, Long> ages = new HashMap<>();
        read(() -> {
            jdbc.query("SELECT topic, TIMESTAMPDIFF(MICROSECOND, MIN(due_time), ?) DIV 1000 FROM sdmq_message"
                    + " WHERE status IN " + NOT_HANDED_OUT + " AND due_time <= ? GROUP BY topic",
                    rs -> {
                        ages.put(rs.getString(1), rs.getLong(2));
                    }, text(now), text(now));
            return null;
        });
        return ages;
    }

    /** A topic's messages per status; a status with none is absent. Reads every row of the topic. */
    Map<String, Long> counts(String topic) {
        Map<String, Long> counts = new HashMap<>();
        read(() -> {
            jdbc.query("SELECT status, COUNT(*) FROM sdmq_message WHERE topic = ? GROUP BY status",
                    rs -> {
                        counts.put(rs.getString(1), rs.getLong(2));
                    }, topic);
            return null;
        });
        return counts;
    }

    /** How long ago the topic's oldest message that is due at {@code now} and not handed out was due; 0 if none. */
    long oldestDueAge(String topic, long now) {
        Long age = read(() -> jdbc.queryForObject("SELECT TIMESTAMPDIFF(MICROSECOND, MIN(due_time), ?) DIV 1000"
                + " FROM sdmq_message WHERE status IN " + NOT_HANDED_OUT + " AND due_time <= ? AND topic = ?",
                Long.class, text(now), text(now), topic));
        return age == null ? 0 : age;
    }

    /**
     * The topic's deliveries (status log rows to {@code RESERVED}) in [{@code from}, {@code to}), on the
     * {@code changed_at} index, and the lateness percentiles (nearest rank, ms) of the ones that are their message's
     * latest: {@code sdmq_message.due_time} holds only the due time of the latest delivery, so an earlier delivery
     * of a message redelivered since has no due time to measure it against.
     */
    Deliveries deliveries(String topic, long from, long to) {
        return read(() -> jdbc.queryForObject("""
                SELECT COUNT(*),
                    MIN(CASE WHEN latest AND position >= CEIL(0.50 * measured) THEN lateness_ms END),
                    MIN(CASE WHEN latest AND position >= CEIL(0.99 * measured) THEN lateness_ms END)
                FROM (
                    SELECT lateness_ms, latest,
                        ROW_NUMBER() OVER (PARTITION BY latest ORDER BY lateness_ms) AS position,
                        SUM(latest) OVER () AS measured
                    FROM (
                        SELECT TIMESTAMPDIFF(MICROSECOND, m.due_time, l.changed_at) DIV 1000 AS lateness_ms,
                            l.changed_at >= m.due_time AS latest
                        FROM sdmq_message_log l JOIN sdmq_message m ON m.id = l.message_id
                        WHERE l.changed_at >= ? AND l.changed_at < ? AND l.to_status = 'RESERVED' AND m.topic = ?
                    ) d
                ) r""", (rs, i) -> new Deliveries(rs.getLong(1), nullable(rs.getObject(2)), nullable(rs.getObject(3))),
                text(from), text(to), topic));
    }

    /** Deliveries in a window and their lateness percentiles in ms, null when none could be measured. */
    record Deliveries(long count, Long latenessP50, Long latenessP99) {
    }

    private static Long nullable(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    private static String text(long epochMs) {
        return UTC.format(Instant.ofEpochMilli(epochMs));
    }

    private static <T> T read(Supplier<T> query) {
        try {
            return query.get();
        } catch (DataAccessException e) {
            throw new UnavailableException("MySQL is unavailable; retry later", e);
        }
    }
}
