package io.sdmq.core.mysql;

import com.zaxxer.hikari.HikariDataSource;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A property of the literal SQL: whatever text a message and its status log rows hold, rendered into the adapter's
 * real statements (a batch insert, single inserts after a taken key, transitions alone and after new messages, a
 * debounce's status log row) and run on MariaDB/MySQL, it raises no error and reads back unchanged, in the server's
 * {@code sql_mode} and with {@code NO_BACKSLASH_ESCAPES} and {@code ANSI_QUOTES}. The text comes from
 * {@link RandomText}, seeded; a failure names the seed, and {@code -Dsdmq.seed=<seed>} runs the same cases again.
 */
class LiteralSqlIT {
    private static final Logger log = LoggerFactory.getLogger(LiteralSqlIT.class);
    private static final long SEED = Long.getLong("sdmq.seed", System.nanoTime());
    private static final int ROUNDS = 30;
    /** The server's default {@code sdmq.max-body-size}, in UTF-8 bytes. */
    private static final int MAX_BODY_BYTES = 64 * 1024;
    private static final long T0 = 1_710_037_800_123L;
    private static final AtomicLong ids = new AtomicLong(7_400_000_000_000_000_000L);

    private final Map<Long, Message> messages = new LinkedHashMap<>();
    private final Map<Long, MessageStatus> statuses = new LinkedHashMap<>();
    private final Map<Long, List<Transition>> rows = new LinkedHashMap<>();
    private Random seeded;
    private RandomText random;
    private HikariDataSource dataSource;
    private MySqlMessageLog messageLog;
    private String host;

    @ParameterizedTest
    @ValueSource(strings = {"", "&sessionVariables=sql_mode='STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES,ANSI_QUOTES'"})
    void random_text_is_stored_without_error_and_read_back_unchanged(String sessionVariables) throws SQLException {
        TestDatabase db = TestServices.freshDatabase();
        try (HikariDataSource pool = (HikariDataSource) new TestDatabase(db.jdbcUrl() + sessionVariables, db.user(),
                db.password()).dataSource()) {
            dataSource = pool;
            assertThat(sqlMode()).contains(sessionVariables.isEmpty() ? List.of("STRICT_TRANS_TABLES")
                    : List.of("STRICT_TRANS_TABLES", "NO_BACKSLASH_ESCAPES", "ANSI_QUOTES"));
            MessageMapper mapper = SpringManagedMapper.over(dataSource);
            seeded = new Random(SEED);
            random = new RandomText(seeded);
            log.info("random text from seed {}", SEED);
            for (int round = 0; round < ROUNDS; round++) {
                host = random.text(Rows.HOST_LENGTH);
                messageLog = new MySqlMessageLog(mapper, dataSource, host);
                try {
                    oneRound();
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError("round " + round + " of seed " + SEED + " failed; -Dsdmq.seed=" + SEED
                            + " runs it again: " + e.getMessage(), e);
                }
            }
        }
    }

    private void oneRound() throws SQLException {
        messages.clear();
        statuses.clear();
        rows.clear();
        List<Message> batch = newMessages();
        assertThat(inserted(batch, List.of())).containsExactlyElementsOf(batch.stream().map(Message::id).toList());

        Message taken = batch.get(0);
        Message fresh = newMessages().get(0);
        Message again = new Message(ids.incrementAndGet(), taken.topic(), taken.bizKey(), random.text(300), 0, T0,
                T0 + 1, 30_000, 3, null, 0);
        String thread = random.text(Rows.THREAD_LENGTH);
        assertThat(asThread(thread, () -> messageLog.insert(List.of(fresh, again))))
                .containsExactly(fresh.id(), taken.id());
        record(fresh, thread);

        List<Transition> delayed = batch.stream().map(this::delayed).toList();
        messageLog.apply(delayed);
        delayed.forEach(this::record);
        List<Message> more = newMessages();
        inserted(more, List.of(delayed(fresh)));
        debounce(taken);

        for (Message m : messages.values()) {
            readBack(m);
        }
    }

    /** A batch of 1 to 4 new messages, the first with a business key, of random text. */
    private List<Message> newMessages() {
        List<Message> batch = new ArrayList<>();
        for (int i = 1 + seeded.nextInt(4); i > 0; i--) {
            long id = ids.incrementAndGet();
            String prefix = id + ":";
            String bizKey = !batch.isEmpty() && seeded.nextBoolean() ? null
                    : prefix + random.text(PushRules.MAX_BIZ_KEY - prefix.length());
            batch.add(new Message(id, random.topic(), bizKey, random.text(MAX_BODY_BYTES, MAX_BODY_BYTES), i, T0,
                    T0 + 1_000, 30_000, 3, i % 2 == 0 ? null : List.of(0L, 1_000L), 0));
        }
        return batch;
    }

    /** Inserts new messages and applies transitions in one transaction, as a thread of random name. */
    private List<Long> inserted(List<Message> batch, List<Transition> transitions) {
        String thread = random.text(Rows.THREAD_LENGTH);
        List<Long> answered = asThread(thread, () -> messageLog.insertAndApply(batch, transitions));
        batch.forEach(m -> record(m, thread));
        transitions.forEach(this::record);
        return answered;
    }

    /** Replaces a body through the mapper; the transition's status log row is literal SQL. */
    private void debounce(Message m) {
        Message replaced = new Message(m.id(), m.topic(), m.bizKey(), random.text(MAX_BODY_BYTES, MAX_BODY_BYTES),
                m.priority(), m.createTime(), m.dueTime() + 5_000, m.ttrMs(), m.maxAttempts(), m.retryDelays(),
                m.attempts());
        Transition change = new Transition(m.id(), DELAY, DELAY, T0 + 3, random.text(Rows.BUCKET_LENGTH), null,
                replaced.dueTime(), random.text(Rows.THREAD_LENGTH), random.text(Rows.NOTE_LENGTH));
        assertThat(messageLog.replace(m.id(), replaced.body(), replaced.dueTime(), change)).isTrue();
        messages.put(m.id(), replaced);
        record(change);
    }

    private Transition delayed(Message m) {
        return new Transition(m.id(), WAIT_PUT, DELAY, T0 + 2, random.text(Rows.BUCKET_LENGTH), null, null,
                random.text(Rows.THREAD_LENGTH), random.text(Rows.NOTE_LENGTH));
    }

    private void record(Message m, String thread) {
        messages.put(m.id(), m);
        record(new Transition(m.id(), null, WAIT_PUT, m.createTime(), null, null, null, thread, null));
    }

    /** A status log row as it reads back: without the attempts and due time that only move the message. */
    private void record(Transition t) {
        statuses.put(t.messageId(), t.to());
        rows.computeIfAbsent(t.messageId(), id -> new ArrayList<>()).add(new Transition(t.messageId(), t.from(),
                t.to(), t.changedAt(), t.bucket(), null, null, t.thread(), t.note(), host));
    }

    private void readBack(Message m) throws SQLException {
        StoredMessage stored = messageLog.find(m.id()).orElseThrow();
        assertThat(stored.message()).isEqualTo(m);
        assertThat(stored.status()).isEqualTo(statuses.get(m.id()));
        assertThat(messageLog.history(m.id())).containsExactlyElementsOf(rows.get(m.id()));
        if (m.bizKey() != null) {
            assertThat(messageLog.findIdByKey(m.topic(), m.bizKey())).contains(m.id());
        }
        assertThat(hosts(m.id())).hasSize(rows.get(m.id()).size()).containsOnly(host);
    }

    private static <T> T asThread(String name, Supplier<T> work) {
        Thread current = Thread.currentThread();
        String original = current.getName();
        current.setName(name);
        try {
            return work.get();
        } finally {
            current.setName(original);
        }
    }

    private List<String> hosts(long messageId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT host FROM sdmq_message_log WHERE message_id = ?")) {
            s.setLong(1, messageId);
            List<String> hosts = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    hosts.add(rs.getString(1));
                }
            }
            return hosts;
        }
    }

    private String sqlMode() throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement("SELECT @@sql_mode");
             ResultSet rs = s.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
