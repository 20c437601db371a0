package io.sdmq.core.mysql;

import io.sdmq.common.UnavailableException;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.spi.TopicStore;

import tools.jackson.databind.json.JsonMapper;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The topics' settings in {@code sdmq_topic} (one row per topic that has any) and the counts of {@code sdmq_message}
 * by topic and status, over plain JDBC, each call its own transaction: the table is small and read whole every
 * second.
 */
public final class MySqlTopicStore implements TopicStore {
    private static final String COLUMNS = "topic, ttr_ms, max_attempts, retry_delays, priority, max_delay_ms, "
            + "retention_ms, rate_limit, max_in_flight, paused, update_time, delivery";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DataSource dataSource;

    public MySqlTopicStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Map<String, TopicSettings> all() {
        return query("SELECT " + COLUMNS + " FROM sdmq_topic", List.of(), rs -> {
            Map<String, TopicSettings> all = new HashMap<>();
            while (rs.next()) {
                all.put(rs.getString(1), settings(rs));
            }
            return all;
        });
    }

    @Override
    public void put(String topic, TopicSettings s, long now) {
        String sql = "INSERT INTO sdmq_topic (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE ttr_ms = VALUES(ttr_ms), max_attempts = VALUES(max_attempts), "
                + "retry_delays = VALUES(retry_delays), priority = VALUES(priority), "
                + "max_delay_ms = VALUES(max_delay_ms), retention_ms = VALUES(retention_ms), "
                + "rate_limit = VALUES(rate_limit), max_in_flight = VALUES(max_in_flight), paused = VALUES(paused), "
                + "update_time = VALUES(update_time), delivery = VALUES(delivery)";
        String delays = s.retryDelays() == null ? null
                : s.retryDelays().stream().map(String::valueOf).collect(Collectors.joining(","));
        update(sql, Arrays.asList(topic, s.ttr(), s.maxAttempts(), delays, s.priority(), s.maxDelay(), s.retention(),
                s.rateLimit(), s.maxInFlight(), s.paused(), utc(now),
                s.delivery() == null ? null : JSON.writeValueAsString(s.delivery())));
    }

    @Override
    public void pause(String topic, boolean paused, long now) {
        update("INSERT INTO sdmq_topic (topic, paused, update_time) VALUES (?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE paused = VALUES(paused), update_time = VALUES(update_time)",
                List.of(topic, paused, utc(now)));
    }

    @Override
    public boolean delete(String topic) {
        return update("DELETE FROM sdmq_topic WHERE topic = ?", List.of(topic)) > 0;
    }

    /**
     * A page of the names of {@code sdmq_message} (distinct topics, read on the {@code (topic, id)} index) merged with
     * those of {@code sdmq_topic}.
     */
    @Override
    public List<String> names(String after, int limit) {
        String from = after == null ? "" : after;
        return query("SELECT topic FROM ((SELECT DISTINCT topic FROM sdmq_message WHERE topic > ? ORDER BY topic "
                + "LIMIT ?) UNION (SELECT topic FROM sdmq_topic WHERE topic > ? ORDER BY topic LIMIT ?)) t "
                + "ORDER BY topic LIMIT ?", List.of(from, limit, from, limit, limit), rs -> {
                    List<String> names = new ArrayList<>();
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                    return names;
                });
    }

    @Override
    public Map<String, Map<String, Long>> counts(String topic) {
        String sql = "SELECT topic, status, COUNT(*) FROM sdmq_message"
                + (topic == null ? "" : " WHERE topic = ?") + " GROUP BY topic, status";
        return query(sql, topic == null ? List.of() : List.of(topic), rs -> {
            Map<String, Map<String, Long>> counts = new TreeMap<>();
            while (rs.next()) {
                counts.computeIfAbsent(rs.getString(1), t -> new TreeMap<>()).put(rs.getString(2), rs.getLong(3));
            }
            return counts;
        });
    }

    private static Timestamp utc(long millis) {
        return Timestamp.valueOf(LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC));
    }

    private static TopicSettings settings(ResultSet rs) throws SQLException {
        String delays = rs.getString(4);
        return new TopicSettings(rs.getObject(2, Long.class), rs.getObject(3, Integer.class),
                delays == null ? null : Arrays.stream(delays.split(",")).map(Long::valueOf).toList(),
                rs.getObject(5, Integer.class), rs.getObject(6, Long.class), rs.getObject(7, Long.class),
                rs.getObject(8, Integer.class), rs.getObject(9, Integer.class), rs.getBoolean(10),
                delivery(rs.getString(12)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> delivery(String json) {
        return json == null ? null : JSON.readValue(json, Map.class);
    }

    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String sql, List<?> args, Reader<T> rows) {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = prepare(c, sql, args);
             ResultSet rs = st.executeQuery()) {
            T read = rows.read(rs);
            commit(c);
            return read;
        } catch (SQLException e) {
            throw new UnavailableException("MySQL is unavailable; retry later", e);
        }
    }

    private int update(String sql, List<?> args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = prepare(c, sql, args)) {
            int changed = st.executeUpdate();
            commit(c);
            return changed;
        } catch (SQLException e) {
            throw new UnavailableException("MySQL is unavailable; retry later", e);
        }
    }

    /** The pool's connections may not be in autocommit: each call is its own transaction. */
    private static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, List<?> args) throws SQLException {
        PreparedStatement st = c.prepareStatement(sql);
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i) == null) {
                st.setNull(i + 1, Types.NULL);
            } else {
                st.setObject(i + 1, args.get(i));
            }
        }
        return st;
    }
}
