package io.sdmq.server;

import io.sdmq.testing.TestServices;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/**
 * What a server has written: the row counts of both MySQL tables and every Redis key under its prefix, for tests that
 * check a request wrote nothing.
 */
record StoreState(long messages, long logRows, Set<String> keys) {

    static StoreState of(DataSource rows, String prefix) {
        return new StoreState(count(rows, "sdmq_message"), count(rows, "sdmq_message_log"), redisKeys(prefix));
    }

    /**
     * The state once earlier asynchronous writes (e.g. the log rows of a setup's push) are done: two looks 200 ms
     * apart agree, so a late write of an earlier request is not blamed on the next one.
     */
    static StoreState settled(DataSource rows, String prefix) {
        AtomicReference<StoreState> previous = new AtomicReference<>(of(rows, prefix));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            StoreState now = of(rows, prefix);
            return now.equals(previous.getAndSet(now));
        });
        return previous.get();
    }

    private static long count(DataSource rows, String table) {
        try (Connection c = rows.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("could not count " + table, e);
        }
    }

    private static Set<String> redisKeys(String prefix) {
        Set<String> keys = new TreeSet<>();
        ScanOptions match = ScanOptions.scanOptions().match(prefix + ":*").count(1_000).build();
        try (Cursor<String> cursor = TestServices.redisTemplate().scan(match)) {
            cursor.forEachRemaining(keys::add);
        }
        return keys;
    }
}
