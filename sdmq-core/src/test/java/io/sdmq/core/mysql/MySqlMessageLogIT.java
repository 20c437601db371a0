package io.sdmq.core.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import com.zaxxer.hikari.HikariDataSource;
import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.MessageLogContract;
import io.sdmq.testing.TestServices;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;

import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MySqlMessageLogIT extends MessageLogContract {
    private static final String HOST = "sdmq-it-host";

    private final List<HikariDataSource> dataSources = new ArrayList<>();

    @Override
    protected String loggedHost() {
        return HOST;
    }

    @Override
    protected MessageLog newLog() {
        HikariDataSource dataSource = (HikariDataSource) TestServices.freshDatabase().dataSource();
        dataSources.add(dataSource);
        return SpringManagedMapper.messageLog(dataSource, HOST);
    }

    @AfterEach
    void closeDataSources() {
        dataSources.forEach(HikariDataSource::close);
    }

    @Test
    void times_read_in_plain_sql_are_utc() throws SQLException {
        TimeZone original = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
            long created = Instant.parse("2024-03-10T02:30:00.123Z").toEpochMilli();
            Message m = aMessage().bizKey("o-1").createdAt(created).due(created + 1_000).build();
            log.insert(List.of(m));

            assertThat(queryOne("SELECT CONCAT(DATE_FORMAT(create_time, '%Y-%m-%d %H:%i:%s.%f'), ' ',"
                    + " DATE_FORMAT(due_time, '%H:%i:%s.%f'), ' ', status) FROM sdmq_message WHERE id = " + m.id()))
                    .isEqualTo("2024-03-10 02:30:00.123000 02:30:01.123000 WAIT_PUT");
        } finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    void log_rows_name_the_host_and_thread_in_plain_sql() throws SQLException {
        Message m = message("order", "o-1");
        log.insert(List.of(m));
        log.apply(List.of(new Transition(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET, null, null, "journal-1", "x")));

        assertThat(queryOne("SELECT GROUP_CONCAT(CONCAT_WS('|', COALESCE(from_status, '-'), to_status, host,"
                + " thread) ORDER BY id SEPARATOR ' ; ') FROM sdmq_message_log WHERE message_id = " + m.id()))
                .isEqualTo("-|WAIT_PUT|" + HOST + "|" + Thread.currentThread().getName()
                        + " ; WAIT_PUT|DELAY|" + HOST + "|journal-1");
    }

    @Test
    void over_long_free_text_is_cut_to_its_column() {
        Message m = message("order", "o-1");
        log.insert(List.of(m));
        String note = "n".repeat(254) + "😀";

        log.apply(List.of(new Transition(m.id(), WAIT_PUT, DELAY, T0 + 1, "b".repeat(300), null, null,
                "t".repeat(200), note)));

        Transition logged = log.history(m.id()).get(1);
        assertThat(logged.bucket()).hasSize(200);
        assertThat(logged.thread()).hasSize(128);
        assertThat(logged.note()).isEqualTo("n".repeat(254));
    }

    /**
     * The writes of messages and their status log travel as SQL literals: any text comes back as it was written,
     * whether or not the server's {@code sql_mode} treats a backslash as an escape.
     */
    @Test
    void free_text_is_stored_as_written_in_either_sql_mode() {
        String note = "it's a \\'quote\\' ? {fn now()} -- ; 100% é 😀 \t\n\0 end";
        String bucket = "pre'fix:{b3}:delay";
        String thread = "worker \"1\" C:\\tmp";
        for (String sessionVariables : List.of("", "&sessionVariables=sql_mode=NO_BACKSLASH_ESCAPES")) {
            TestServices.TestDatabase db = TestServices.freshDatabase();
            HikariDataSource dataSource = (HikariDataSource) new TestServices.TestDatabase(
                    db.jdbcUrl() + sessionVariables, db.user(), db.password()).dataSource();
            dataSources.add(dataSource);
            MessageLog log = SpringManagedMapper.messageLog(dataSource, HOST);
            Message m = aMessage().topic("order").bizKey("o'1 \\ é").body(note + thread).createdAt(T0).due(T0 + 5)
                    .build();
            log.insert(List.of(m));
            assertThat(log.find(m.id())).as(sessionVariables).contains(new StoredMessage(m, WAIT_PUT, T0));
            assertThat(log.findIdByKey("order", "o'1 \\ é")).contains(m.id());

            log.apply(List.of(new Transition(m.id(), WAIT_PUT, DELAY, T0 + 1, bucket, null, null, thread, note)));

            Transition logged = log.history(m.id()).get(1);
            assertThat(logged.note()).as(sessionVariables).isEqualTo(note);
            assertThat(logged.bucket()).as(sessionVariables).isEqualTo(bucket);
            assertThat(logged.thread()).as(sessionVariables).isEqualTo(thread);
            assertThat(log.find(m.id()).orElseThrow().status()).isEqualTo(DELAY);
        }
    }

    /**
     * A batch's updates and its COMMIT travel as one multi-statement: when one of them fails, the server runs none of
     * the rest, so nothing of the batch is committed, and the connection goes back to the pool fit for the next one.
     */
    @Test
    void a_batch_whose_update_fails_commits_nothing() throws SQLException {
        HikariDataSource dataSource = shortLockWaits();
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        Message first = message("order", "o-1");
        Message second = message("order", "o-2");
        shortWaits.insert(List.of(first, second));
        List<Transition> batch = List.of(Transition.of(first.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(second.id(), WAIT_PUT, DELAY, T0 + 2, BUCKET));

        whileRowLocked(dataSource, second.id(), () -> assertThatThrownBy(() -> shortWaits.apply(batch))
                .isInstanceOf(UnavailableException.class).hasMessageContaining("apply 2 transitions"));

        assertThat(shortWaits.history(first.id())).extracting(Transition::to).containsExactly(WAIT_PUT);
        assertThat(shortWaits.find(first.id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
        shortWaits.apply(batch);
        assertThat(shortWaits.find(first.id()).orElseThrow().status()).isEqualTo(DELAY);
        assertThat(shortWaits.find(second.id()).orElseThrow().status()).isEqualTo(DELAY);
    }

    /**
     * New messages and their log rows commit in the multi-statement that inserts them: when the log rows cannot be
     * written, the messages inserted before them in the same transaction are rolled back, not left for the next
     * transaction on the connection to commit.
     */
    @Test
    void a_push_batch_whose_log_rows_fail_commits_none_of_its_messages() throws SQLException {
        TestServices.TestDatabase db = TestServices.freshDatabase();
        HikariDataSource dataSource = (HikariDataSource) new TestServices.TestDatabase(
                db.jdbcUrl() + "&sessionVariables=lock_wait_timeout=1", db.user(), db.password()).dataSource();
        dataSource.setMaximumPoolSize(1);
        dataSources.add(dataSource);
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        Message failed = message("order", "o-1");

        try (Connection holder = DriverManager.getConnection(dataSource.getJdbcUrl(), db.user(), db.password());
             Statement s = holder.createStatement()) {
            s.execute("LOCK TABLES sdmq_message_log WRITE");
            assertThatThrownBy(() -> shortWaits.insert(List.of(failed))).isInstanceOf(UnavailableException.class)
                    .hasMessageContaining("insert 1 messages");
            s.execute("UNLOCK TABLES");
        }
        Message next = message("order", "o-2");
        shortWaits.insert(List.of(next));

        assertThat(shortWaits.find(failed.id())).isEmpty();
        assertThat(shortWaits.history(failed.id())).isEmpty();
        assertThat(shortWaits.find(next.id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
    }

    /**
     * New messages and transitions written together commit together: when an update of the transitions cannot run,
     * the messages inserted before it in the same multi-statement are rolled back with it.
     */
    @Test
    void messages_and_transitions_written_together_commit_nothing_when_the_transitions_fail() throws SQLException {
        HikariDataSource dataSource = shortLockWaits();
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        Message earlier = message("order", "o-1");
        shortWaits.insert(List.of(earlier));
        Message fresh = message("order", "o-2");
        List<Transition> deleted = List.of(Transition.of(earlier.id(), WAIT_PUT, DELETED, T0 + 1, BUCKET));

        whileRowLocked(dataSource, earlier.id(), () -> assertThatThrownBy(
                () -> shortWaits.insertAndApply(List.of(fresh), deleted))
                .isInstanceOf(UnavailableException.class).hasMessageContaining("insert 1 messages and apply 1"));

        assertThat(shortWaits.find(fresh.id())).isEmpty();
        assertThat(shortWaits.history(fresh.id())).isEmpty();
        assertThat(shortWaits.find(earlier.id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
        assertThat(shortWaits.insertAndApply(List.of(fresh), deleted)).containsExactly(fresh.id());
        assertThat(shortWaits.find(earlier.id()).orElseThrow().status()).isEqualTo(DELETED);
    }

    /**
     * A batch over most of a small table locks only its own rows. Left to themselves, MySQL and MariaDB update such
     * a batch by scanning the whole primary key, and MariaDB turns an IN list of 1 000 ids or more into a join that
     * may scan it too; a scan locks every row it reads and the gaps between them, so a push committing at the same
     * time waits for the batch or deadlocks with it.
     */
    @Test
    void a_batch_over_most_of_a_small_table_leaves_a_concurrent_push_alone() throws SQLException {
        HikariDataSource dataSource = shortLockWaits();
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        List<Message> messages = inserted(shortWaits, 1_500);
        // 600 share one time (one shared update), 600 have each their own (one update with a time per id)
        List<Transition> batch = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            batch.add(Transition.of(messages.get(i).id(), WAIT_PUT, DELAY, i < 600 ? T0 + 1 : T0 + 1 + i, BUCKET));
        }
        Message pushed = message("order", "o-pushed");

        whileUncommitted(dataSource, pushed, () -> shortWaits.apply(batch));

        assertThat(queryOne("SELECT CONCAT(status, ' ', COUNT(*)) FROM sdmq_message GROUP BY status ORDER BY status"))
                .isEqualTo("DELAY 1200");
        assertThat(shortWaits.find(messages.get(599).id()).orElseThrow().updateTime()).isEqualTo(T0 + 1);
        assertThat(shortWaits.find(messages.get(1_199).id()).orElseThrow().updateTime()).isEqualTo(T0 + 1 + 1_199);
        assertThat(shortWaits.find(pushed.id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
        assertThat(shortWaits.find(messages.get(1_200).id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
    }

    @Test
    void a_purge_of_most_of_a_small_table_leaves_a_concurrent_push_alone() throws SQLException {
        HikariDataSource dataSource = shortLockWaits();
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        List<Message> messages = inserted(shortWaits, 800);
        List<Transition> done = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            done.add(Transition.of(messages.get(i).id(), WAIT_PUT, DELETED, T0 + 1, BUCKET));
        }
        shortWaits.apply(done);
        Message pushed = message("order", "o-pushed");

        whileUncommitted(dataSource, pushed,
                () -> assertThat(shortWaits.purgeTerminal(T0 + 5_001, 500, null, Set.of())).isEqualTo(500));

        assertThat(shortWaits.purgeTerminal(T0 + 5_001, 500, null, Set.of())).isEqualTo(100);
        assertThat(queryOne("SELECT CONCAT(COUNT(*), ' ', SUM(status = 'WAIT_PUT')) FROM sdmq_message"))
                .isEqualTo("201 201");
        assertThat(queryOne("SELECT COUNT(*) FROM sdmq_message_log")).isEqualTo("201");
        assertThat(shortWaits.history(pushed.id())).hasSize(1);
    }

    @Test
    void unreachable_database_surfaces_as_unavailable() {
        MysqlDataSource nowhere = new MysqlDataSource();
        nowhere.setURL("jdbc:mysql://127.0.0.1:1/sdmq?connectTimeout=500");
        MessageLog unreachable = SpringManagedMapper.messageLog(nowhere, HOST);

        assertThatThrownBy(() -> unreachable.insert(List.of(message("order", "o-1"))))
                .isInstanceOf(UnavailableException.class)
                .hasMessage("MySQL is unavailable: could not insert 1 messages")
                .hasCauseInstanceOf(RuntimeException.class);
        Transition delayed = Transition.of(1L, WAIT_PUT, DELAY, T0, BUCKET);
        List<ThrowingCallable> calls = List.of(() -> unreachable.find(1L), () -> unreachable.findAll(List.of(1L)),
                () -> unreachable.findIdByKey("order", "o-1"), () -> unreachable.apply(List.of(delayed)),
                () -> unreachable.insertAndApply(List.of(message("order", "o-2")), List.of(delayed)),
                () -> unreachable.replace(1L, "body", T0, delayed), () -> unreachable.findPending(0, 10),
                () -> unreachable.findWaitPut(T0, 10), () -> unreachable.findOverdue(T0, 0, 10),
                () -> unreachable.purgeTerminal(T0, 10, null, Set.of()), () -> unreachable.history(1L));
        for (ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(UnavailableException.class)
                    .hasMessageStartingWith("MySQL is unavailable: could not ").cause().isNotNull();
        }
    }

    /**
     * A statement of the mapper that fails, here a debounce's update waiting too long for a row lock, surfaces as
     * {@link UnavailableException} like the literal SQL's, and commits nothing.
     */
    @Test
    void a_mapper_statement_that_fails_surfaces_as_unavailable_and_changes_nothing() throws SQLException {
        HikariDataSource dataSource = shortLockWaits();
        MessageLog shortWaits = SpringManagedMapper.messageLog(dataSource, HOST);
        Message m = inserted(shortWaits, 1).get(0);
        Transition replaced = Transition.of(m.id(), DELAY, DELAY, T0 + 1, BUCKET).withNote("replaced");

        whileRowLocked(dataSource, m.id(), () -> assertThatThrownBy(
                () -> shortWaits.replace(m.id(), "new", T0 + 9_000, replaced))
                .isInstanceOf(UnavailableException.class)
                .hasMessage("MySQL is unavailable: could not replace message " + m.id())
                .hasRootCauseInstanceOf(SQLException.class));

        assertThat(shortWaits.find(m.id())).contains(new StoredMessage(m, WAIT_PUT, T0));
        assertThat(shortWaits.history(m.id())).hasSize(1);
    }

    private static List<Message> inserted(MessageLog log, int count) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            messages.add(message("order", "o-" + i));
        }
        log.insert(messages);
        return messages;
    }

    /** Runs {@code work} while another connection holds the push of {@code pushed} uncommitted, then commits it. */
    private static void whileUncommitted(DataSource dataSource, Message pushed, Runnable work) throws SQLException {
        try (Connection pusher = dataSource.getConnection(); Statement s = pusher.createStatement()) {
            pusher.setAutoCommit(false);
            s.execute(LiteralSql.insert(Rows.newMessage(pushed), Rows.firstStatusLogRow(pushed, HOST, "pusher")));
            work.run();
            pusher.commit();
        }
    }

    /** Runs {@code work} while another connection holds the row lock of message {@code id}, then releases it. */
    private static void whileRowLocked(DataSource dataSource, long id, Runnable work) throws SQLException {
        try (Connection holder = dataSource.getConnection(); Statement s = holder.createStatement()) {
            holder.setAutoCommit(false);
            s.executeQuery("SELECT id FROM sdmq_message WHERE id = " + id + " FOR UPDATE").close();
            work.run();
            holder.rollback();
        }
    }

    /** A fresh database whose sessions give up waiting for a row lock after a second. */
    private HikariDataSource shortLockWaits() {
        TestServices.TestDatabase db = TestServices.freshDatabase();
        HikariDataSource dataSource = (HikariDataSource) new TestServices.TestDatabase(
                db.jdbcUrl() + "&sessionVariables=innodb_lock_wait_timeout=1", db.user(), db.password()).dataSource();
        dataSources.add(dataSource);
        return dataSource;
    }

    private String queryOne(String sql) throws SQLException {
        DataSource dataSource = dataSources.get(dataSources.size() - 1);
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
