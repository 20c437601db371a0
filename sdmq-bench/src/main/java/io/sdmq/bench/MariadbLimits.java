package io.sdmq.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.sdmq.bench.RawLimits.BATCH;
import static io.sdmq.bench.RawLimits.FIRST_ID;

/**
 * MariaDB's raw limits (see {@link RawLimits}), in a scratch database created and dropped: batched INSERT rows per
 * second (one JDBC connection, autocommit off, one multi-row INSERT of 1 000 rows of the {@code sdmq_message} shape
 * and a commit per batch), the durable commit rate of one connection (one single-row INSERT per transaction), and the
 * durable commit rate of as many connections at once as W1 has producers: a push answers only after a commit, so
 * this is W1's push rate if a push cost nothing but its commit.
 */
final class MariadbLimits {
    private static final int COMMITS = 500;

    private MariadbLimits() {
    }

    static void measure(String jdbcUrl, String user, String password, int count, int writers,
                        Map<String, Object> result) throws Exception {
        String database = "sdmq_bench_raw_" + Long.toString(System.currentTimeMillis(), 36);
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
            try {
                statement.execute("USE " + database);
                statement.execute(MESSAGE_TABLE);
                try (ResultSet settings = statement.executeQuery(
                        "SELECT @@version, @@innodb_flush_log_at_trx_commit, @@innodb_buffer_pool_size")) {
                    settings.next();
                    result.put("mariadbVersion", settings.getString(1));
                    result.put("innodbFlushLogAtTrxCommit", settings.getInt(2));
                    result.put("innodbBufferPoolMiB", settings.getLong(3) >> 20);
                }
                connection.setAutoCommit(false);
                int rows = (count + BATCH - 1) / BATCH * BATCH;
                double seconds = insertRows(connection, rows);
                result.put("insertRows", rows);
                result.put("insertSeconds", Workloads.round3(seconds));
                result.put("insertRowsPerSecond", Math.round(rows / seconds));
                double commitSeconds = commitOneByOne(connection, COMMITS, FIRST_ID - 1);
                result.put("commits", COMMITS);
                result.put("commitsPerSecond", Math.round(COMMITS / commitSeconds));
                double concurrentSeconds = commitFromWriters(jdbcUrl, user, password, database, writers);
                result.put("commitWriters", writers);
                result.put("writersCommitsPerSecond", Math.round(writers * COMMITS / concurrentSeconds));
            } finally {
                connection.setAutoCommit(true);
                statement.execute("DROP DATABASE " + database);
            }
        }
    }

    /** Inserts rows (a multiple of BATCH) and answers the seconds it took. */
    private static double insertRows(Connection connection, int count) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO sdmq_message (id, topic, biz_key, body, priority, delay_ms,"
                + " ttr_ms, max_attempts, retry_delays, create_time, due_time, status, attempts, update_time) VALUES ");
        for (int i = 0; i < BATCH; i++) {
            sql.append(i == 0 ? "" : ",").append("(?,?,NULL,?,0,?,30000,8,NULL,?,?,'WAIT_PUT',0,?)");
        }
        long start = System.nanoTime();
        try (PreparedStatement insert = connection.prepareStatement(sql.toString())) {
            for (int from = 0; from < count; from += BATCH) {
                long now = System.currentTimeMillis();
                for (int i = 0; i < BATCH; i++) {
                    long delay = 2_000 + (from + i) % 8_000;
                    int p = i * 7;
                    insert.setLong(p + 1, FIRST_ID + from + i);
                    insert.setString(p + 2, "raw");
                    insert.setString(p + 3, Messages.body(from + i, now + delay, 200));
                    insert.setLong(p + 4, delay);
                    insert.setTimestamp(p + 5, new Timestamp(now));
                    insert.setTimestamp(p + 6, new Timestamp(now + delay));
                    insert.setTimestamp(p + 7, new Timestamp(now));
                }
                insert.executeUpdate();
                connection.commit();
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** COMMITS transactions on each of {@code writers} connections at once; answers the seconds until all ended. */
    private static double commitFromWriters(String jdbcUrl, String user, String password, String database,
                                            int writers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Connection> connections = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                connections.add(connection);
                try (Statement use = connection.createStatement()) {
                    use.execute("USE " + database);
                }
                connection.setAutoCommit(false);
            }
            List<Future<Double>> done = new ArrayList<>();
            long start = System.nanoTime();
            for (int w = 0; w < writers; w++) {
                Connection connection = connections.get(w);
                long firstId = FIRST_ID - 1 - (long) (w + 1) * COMMITS;
                done.add(pool.submit(() -> commitOneByOne(connection, COMMITS, firstId)));
            }
            for (Future<Double> writer : done) {
                writer.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdownNow();
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    /**
     * Transactions of one single-row INSERT each, with ids counting down from firstId: the durable commit rate of one
     * connection (the fsync limit).
     */
    private static double commitOneByOne(Connection connection, int commits, long firstId) throws SQLException {
        long start = System.nanoTime();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO sdmq_message (id, topic, biz_key,"
                + " body, priority, delay_ms, ttr_ms, max_attempts, retry_delays, create_time, due_time, status,"
                + " attempts, update_time) VALUES (?,'raw-commit',NULL,?,0,5000,30000,8,NULL,?,?,'WAIT_PUT',0,?)")) {
            for (int i = 0; i < commits; i++) {
                long now = System.currentTimeMillis();
                insert.setLong(1, firstId - i);
                insert.setString(2, Messages.body(i, now + 5_000, 200));
                insert.setTimestamp(3, new Timestamp(now));
                insert.setTimestamp(4, new Timestamp(now + 5_000));
                insert.setTimestamp(5, new Timestamp(now));
                insert.executeUpdate();
                connection.commit();
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** The shape of sdmq's message table (same columns, types and indexes), without its comments. */
    private static final String MESSAGE_TABLE = """
            CREATE TABLE sdmq_message (
                id           BIGINT        NOT NULL,
                topic        VARCHAR(64)   NOT NULL,
                biz_key      VARCHAR(128)  NULL,
                body         MEDIUMTEXT    NOT NULL,
                priority     INT           NOT NULL,
                delay_ms     BIGINT        NOT NULL,
                ttr_ms       BIGINT        NOT NULL,
                max_attempts INT           NOT NULL,
                retry_delays VARCHAR(2048) NULL,
                create_time  DATETIME(3)   NOT NULL,
                due_time     DATETIME(3)   NOT NULL,
                status       VARCHAR(16)   NOT NULL,
                attempts     INT           NOT NULL DEFAULT 0,
                update_time  DATETIME(3)   NOT NULL,
                PRIMARY KEY (id),
                UNIQUE KEY uk_topic_biz_key (topic, biz_key),
                KEY idx_status_due_time (status, due_time)
            ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin""";
}
