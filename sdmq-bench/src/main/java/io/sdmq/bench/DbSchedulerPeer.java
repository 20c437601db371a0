package io.sdmq.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * db-scheduler on the same MariaDB, as a service would use it: a push schedules a one-time task instance at the
 * message's due time (one durable INSERT), and the scheduler, with one thread per consumer, runs due instances; a
 * run hands its body to the consumers and the scheduler then deletes the row. db-scheduler's defaults otherwise,
 * among them its poll for due executions every 10 s. Its database (sdmq_peer unless --peer-db names another) is
 * made afresh and dropped.
 * It talks to MariaDB through MariaDB's own driver: MySQL's Connector/J, given a timestamp parameter, drops its
 * fractional seconds on a server that announces itself as "5.5.5-…MariaDB", and db-scheduler then ran up to a
 * second early whatever it polled within the second a message fell due in (sdmq binds its times as text for that
 * reason, UtcDateTimeTypeHandler).
 */
final class DbSchedulerPeer implements Target {
    /**
     * db-scheduler's table as its documentation gives it for MySQL, but for execution_time's explicit default: without
     * one, MariaDB (explicit_defaults_for_timestamp off) makes the column ON UPDATE CURRENT_TIMESTAMP, so every update
     * of a row would move its due time (db-scheduler pull request 779).
     */
    private static final String TABLE = """
            CREATE TABLE scheduled_tasks (
              task_name VARCHAR(100) NOT NULL,
              task_instance VARCHAR(100) NOT NULL,
              task_data BLOB,
              execution_time TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
              picked BOOLEAN NOT NULL,
              picked_by VARCHAR(50),
              last_success TIMESTAMP(6) NULL,
              last_failure TIMESTAMP(6) NULL,
              consecutive_failures INT,
              last_heartbeat TIMESTAMP(6) NULL,
              version BIGINT NOT NULL,
              priority SMALLINT,
              PRIMARY KEY (task_name, task_instance),
              INDEX execution_time_idx (execution_time),
              INDEX last_heartbeat_idx (last_heartbeat),
              INDEX priority_execution_time_idx (priority DESC, execution_time ASC))""";

    private final String jdbcServer;
    private final String database;
    private final String user;
    private final String password;
    private final HikariDataSource dataSource;
    private final OneTimeTask<String> task;
    private final Scheduler scheduler;
    private final LinkedBlockingQueue<String> ran = new LinkedBlockingQueue<>();
    private final ExecutorService background = Executors.newCachedThreadPool();

    DbSchedulerPeer(String jdbcServer, String database, String user, String password, int threads)
            throws SQLException {
        this.jdbcServer = jdbcServer;
        this.database = database;
        this.user = user;
        this.password = password;
        run("DROP DATABASE IF EXISTS " + database, "CREATE DATABASE " + database, "USE " + database, TABLE);
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(jdbcServer + database);
        dataSource.setUsername(user);
        dataSource.setPassword(password);
        dataSource.setMaximumPoolSize(32);
        task = Tasks.oneTime("bench", String.class).execute((instance, context) -> ran.add(instance.getData()));
        scheduler = Scheduler.create(dataSource, task).threads(threads).build();
        scheduler.start();
    }

    private void run(String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcServer, user, password);
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** One INSERT, or a batch's in db-scheduler's own batch call. */
    @Override
    public boolean push(String topic, List<Outgoing> messages) {
        if (messages.size() == 1) {
            scheduler.schedule(instance(topic, messages.get(0)));
        } else {
            scheduler.scheduleBatch(messages.stream().<SchedulableInstance<?>>map(m -> instance(topic, m)).toList());
        }
        return true;
    }

    private SchedulableInstance<String> instance(String topic, Outgoing m) {
        return SchedulableInstance.of(task.instance(topic + ":" + Messages.seqOf(m.body()), m.body()),
                Instant.ofEpochMilli(m.deliverAt()));
    }

    @Override
    public CompletableFuture<Boolean> pushAsync(String topic, Outgoing message) {
        return CompletableFuture.supplyAsync(() -> push(topic, List.of(message)), background);
    }

    @Override
    public List<Delivered> get(String topic, int timeoutMs, int count) throws IOException {
        return Peers.take(ran, timeoutMs, count);
    }

    @Override
    public void close() throws SQLException {
        scheduler.stop();
        dataSource.close();
        background.shutdownNow();
        run("DROP DATABASE IF EXISTS " + database);
    }
}
