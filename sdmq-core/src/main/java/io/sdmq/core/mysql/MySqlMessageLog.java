package io.sdmq.core.mysql;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.MessageLog;
import org.apache.ibatis.exceptions.ExceptionFactory;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.LocalCacheScope;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * {@link MessageLog} on MySQL / MariaDB through plain MyBatis. Every call is one transaction; a transaction chosen
 * as a deadlock victim is run again, any other database failure surfaces as {@link UnavailableException}.
 */
public final class MySqlMessageLog implements MessageLog {
    private static final Logger log = LoggerFactory.getLogger(MySqlMessageLog.class);
    private static final int ER_DUP_ENTRY = 1062;
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int MAX_TRIES = 3;
    /**
     * About how long one statement of new messages may be: a batch push's rows are cut into statements of this size,
     * well within any server's {@code max_allowed_packet} (MySQL 8.0 and MariaDB default to 64 and 16 MB).
     */
    private static final int STATEMENT_CHARS = 1 << 20;
    /**
     * Rows are inserted in the unique index's order (NULL keys first), so concurrent inserters take their locks
     * in one order and seldom deadlock.
     */
    private static final Comparator<Message> BY_KEY = Comparator.comparing(Message::topic)
            .thenComparing(Message::bizKey, Comparator.nullsFirst(Comparator.naturalOrder()));

    private final SqlSessionFactory sessions;
    private final String host;

    public MySqlMessageLog(DataSource dataSource, String host) {
        this.sessions = new SqlSessionFactoryBuilder().build(configuration(dataSource));
        this.host = host;
    }

    @Override
    public List<Long> insert(List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        String thread = Thread.currentThread().getName();
        return inTransaction("insert " + messages.size() + " messages",
                session -> insertAll(session, messages, thread, "COMMIT"));
    }

    @Override
    public void apply(List<Transition> transitions) {
        if (transitions.isEmpty()) {
            return;
        }
        String sql = transitionsSql(transitions);
        inTransaction("apply " + transitions.size() + " transitions", session -> {
            executeAll(session, sql);
            return null;
        });
    }

    /** The transitions' SQL follows the inserts in their multi-statement: one round trip, one commit. */
    @Override
    public List<Long> insertAndApply(List<Message> messages, List<Transition> transitions) {
        if (messages.isEmpty() || transitions.isEmpty()) {
            return MessageLog.super.insertAndApply(messages, transitions);
        }
        String thread = Thread.currentThread().getName();
        String sql = transitionsSql(transitions);
        return inTransaction("insert " + messages.size() + " messages and apply " + transitions.size()
                + " transitions", session -> insertAll(session, messages, thread, sql));
    }

    private String transitionsSql(List<Transition> transitions) {
        StatusChanges.Batch batch = StatusChanges.Batch.of(StatusChanges.fold(transitions));
        return LiteralSql.transitions(transitions.stream().map(t -> Rows.log(t, host)).toList(), batch);
    }

    @Override
    public Optional<StoredMessage> find(long id) {
        return read("find message " + id, mapper -> Optional.ofNullable(mapper.findMessage(id)).map(Rows::stored));
    }

    @Override
    public List<StoredMessage> findAll(List<Long> ids) {
        return ids.isEmpty() ? List.of()
                : read("find " + ids.size() + " messages", mapper -> stored(mapper.findMessages(ids)));
    }

    @Override
    public Optional<Long> findIdByKey(String topic, String bizKey) {
        return read("find the message of a business key",
                mapper -> Optional.ofNullable(mapper.findIdByKey(topic, bizKey)));
    }

    @Override
    public boolean replace(long id, String body, long dueTime, Transition transition) {
        return inTransaction("replace message " + id, session -> {
            MessageMapper mapper = session.getMapper(MessageMapper.class);
            if (mapper.replaceContent(id, body, Rows.text(dueTime), Rows.text(transition.changedAt())) == 0) {
                return false;
            }
            executeAll(session, LiteralSql.insertLogs(List.of(Rows.log(transition, host))));
            return true;
        });
    }

    @Override
    public List<StoredMessage> findPending(long afterId, int limit) {
        return read("page pending messages", mapper -> stored(mapper.findInStatuses(Statuses.PENDING, afterId, limit)));
    }

    @Override
    public List<StoredMessage> findWaitPut(long updatedBefore, int limit) {
        return read("find WAIT_PUT messages", mapper -> stored(mapper.findWaitPut(Rows.text(updatedBefore), limit)));
    }

    @Override
    public List<StoredMessage> findOverdue(long dueBefore, long afterId, int limit) {
        return read("find overdue messages",
                mapper -> stored(mapper.findDueBefore(Statuses.SCHEDULED, Rows.text(dueBefore), afterId, limit)));
    }

    @Override
    public int purgeTerminal(long before, int limit) {
        return inTransaction("purge terminal messages", session -> {
            List<Long> ids = session.getMapper(MessageMapper.class)
                    .findUnchangedSince(Statuses.TERMINAL, Rows.text(before), limit);
            if (ids.isEmpty()) {
                return 0;
            }
            // the rows first: a second instance purging the same messages waits for them, then deletes none
            int purged = executeAll(session, LiteralSql.deleteTerminalMessages(ids));
            executeAll(session, LiteralSql.deleteLogs(ids) + ";COMMIT");
            return purged;
        });
    }

    private static List<StoredMessage> stored(List<MessageRow> rows) {
        return rows.stream().map(Rows::stored).toList();
    }

    @Override
    public List<Transition> history(long id) {
        return read("read the history of message " + id,
                mapper -> mapper.findLogs(id, Statuses.TERMINAL).stream().map(Rows::transition).toList());
    }

    /** Inserts the messages, then runs {@code end}: statements ending in {@code COMMIT}. */
    private List<Long> insertAll(SqlSession session, List<Message> messages, String thread, String end) {
        try {
            List<Message> ordered = messages.stream().sorted(BY_KEY).toList();
            LiteralSql.insertAll(ordered.stream().map(Rows::newMessage).toList(),
                            ordered.stream().map(m -> Rows.firstLog(m, host, thread)).toList(), STATEMENT_CHARS, end)
                    .forEach(sql -> executeAll(session, sql));
            return messages.stream().map(Message::id).toList();
        } catch (PersistenceException e) {
            if (!hasErrorCode(e, ER_DUP_ENTRY)) {
                throw e;
            }
            executeAll(session, "ROLLBACK");
        }
        log.debug("a batch of {} messages holds a taken (topic, bizKey); inserting them one by one", messages.size());
        List<Long> ids = insertOneByOne(session, messages, thread);
        executeAll(session, end);
        return ids;
    }

    /** Keeps the first message of each (topic, bizKey), in the batch or already stored, and answers its id. */
    private List<Long> insertOneByOne(SqlSession session, List<Message> messages, String thread) {
        MessageMapper mapper = session.getMapper(MessageMapper.class);
        Long[] ids = new Long[messages.size()];
        IntStream.range(0, messages.size()).boxed()
                .sorted(Comparator.comparing(messages::get, BY_KEY))
                .forEach(i -> {
                    Message message = messages.get(i);
                    Long taken = insertUnlessTaken(session, mapper, message, thread);
                    ids[i] = taken == null ? message.id() : taken;
                });
        return List.of(ids);
    }

    /**
     * Inserts a message with its first log row and returns null, or, when its (topic, bizKey) is taken, inserts
     * neither (the failed row's statement stops the multi-statement) and returns the id of the message holding it.
     */
    private Long insertUnlessTaken(SqlSession session, MessageMapper mapper, Message message, String thread) {
        try {
            executeAll(session, LiteralSql.insert(Rows.newMessage(message), Rows.firstLog(message, host, thread)));
            return null;
        } catch (PersistenceException e) {
            if (!hasErrorCode(e, ER_DUP_ENTRY)) {
                throw e;
            }
        }
        Long holder = message.bizKey() == null ? null : mapper.lockIdByKey(message.topic(), message.bizKey());
        if (holder == null) {
            throw new IllegalStateException("message id " + message.id() + " is already taken; this is a bug");
        }
        return holder;
    }

    /**
     * Runs a multi-statement to its end (a statement's failure surfaces only when the results reach it); answers the
     * rows its statements changed together.
     */
    private static int executeAll(SqlSession session, String sql) {
        try (Statement statement = session.getConnection().createStatement()) {
            statement.setEscapeProcessing(false);
            boolean resultSet = statement.execute(sql);
            int changed = 0;
            for (int count = statement.getUpdateCount(); resultSet || count != -1; count = statement.getUpdateCount()) {
                changed += resultSet ? 0 : count;
                resultSet = statement.getMoreResults();
            }
            return changed;
        } catch (SQLException e) {
            // not the SQL itself, which holds message bodies
            throw ExceptionFactory.wrapException("could not run a journal statement", e);
        }
    }

    private <T> T inTransaction(String what, Function<SqlSession, T> work) {
        for (int attempt = 1; ; attempt++) {
            try (SqlSession session = sessions.openSession(false)) {
                try {
                    T result = work.apply(session);
                    // with the driver's useLocalTransactionState no round trip when the work's SQL ended in COMMIT
                    session.commit(true);
                    return result;
                } catch (RuntimeException e) {
                    rollback(session, e);
                    throw e;
                }
            } catch (PersistenceException e) {
                if (attempt == MAX_TRIES || !hasErrorCode(e, ER_LOCK_DEADLOCK)) {
                    throw unavailable(what, e);
                }
                log.warn("could not {}: chosen as a deadlock victim; running it again ({} of {})",
                        what, attempt + 1, MAX_TRIES);
            }
        }
    }

    /**
     * Rolls back whatever the failed work left, with a {@code ROLLBACK} statement: the driver's
     * {@code useLocalTransactionState} skips {@code Connection.rollback()} when the last reply it read said no
     * transaction was open, which after a failed first statement is the reply to the transaction before.
     */
    private static void rollback(SqlSession session, RuntimeException failure) {
        try {
            executeAll(session, "ROLLBACK");
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * A read in a transaction of its own, like the writes: on the server's pool, whose connections are not in
     * autocommit, that costs no {@code SET autocommit} round trip.
     */
    private <T> T read(String what, Function<MessageMapper, T> query) {
        try (SqlSession session = sessions.openSession(false)) {
            return query.apply(session.getMapper(MessageMapper.class));
        } catch (PersistenceException e) {
            throw unavailable(what, e);
        }
    }

    private static UnavailableException unavailable(String what, PersistenceException e) {
        return new UnavailableException("MySQL could not " + what, e);
    }

    private static boolean hasErrorCode(Throwable e, int code) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == code) {
                return true;
            }
        }
        return false;
    }

    private static Configuration configuration(DataSource dataSource) {
        // The pool resets a connection's autocommit when it is returned; MyBatis need not do it as well, which would
        // cost a round trip after every transaction on a pool that hands out connections not in autocommit.
        JdbcTransactionFactory transactions = new JdbcTransactionFactory();
        Properties properties = new Properties();
        properties.setProperty("skipSetAutoCommitOnClose", "true");
        transactions.setProperties(properties);
        Configuration configuration = new Configuration(new Environment("sdmq", transactions, dataSource));
        configuration.setMapUnderscoreToCamelCase(true);
        configuration.setArgNameBasedConstructorAutoMapping(true);
        configuration.setLocalCacheScope(LocalCacheScope.STATEMENT);
        configuration.setCacheEnabled(false);
        configuration.addMapper(MessageMapper.class);
        return configuration;
    }
}
