package io.sdmq.core.mysql;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.MessageQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import javax.sql.DataSource;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * {@link MessageLog} on MySQL / MariaDB. Reads and the rare writes go through MyBatis ({@link MessageMapper}); the
 * frequent writes, new messages and status changes with their status log rows, are literal SQL ({@link LiteralSql})
 * that travels as one multi-statement with its {@code COMMIT}. Every call is one transaction (see
 * {@link Transactions}); a failure of the database surfaces as {@link UnavailableException}.
 * <p>
 * The mapper must be a Spring-managed one over the same DataSource, such as the MyBatis Spring Boot starter
 * registers: its statements then join the adapter's transactions. The connections need the driver's
 * {@code allowMultiQueries}.
 */
public final class MySqlMessageLog implements MessageLog {
    private static final Logger log = LoggerFactory.getLogger(MySqlMessageLog.class);
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

    private final MessageMapper mapper;
    private final Transactions transactions;
    private final String host;
    private final MovesWhereStill movesWhereStill;

    /**
     * @param mapper     the reads, Spring-managed over {@code dataSource}
     * @param dataSource the DataSource of the mapper, for the transactions and the literal SQL
     * @param host       this instance's name in the status log
     */
    public MySqlMessageLog(MessageMapper mapper, DataSource dataSource, String host) {
        this.mapper = mapper;
        this.transactions = new Transactions(dataSource);
        this.host = host;
        this.movesWhereStill = new MovesWhereStill(mapper, transactions, host);
    }

    @Override
    public List<Long> insert(List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        String thread = Thread.currentThread().getName();
        return transactions.run("insert " + messages.size() + " messages",
                () -> insertAll(messages, thread, "COMMIT"));
    }

    @Override
    public void apply(List<Transition> transitions) {
        if (transitions.isEmpty()) {
            return;
        }
        String sql = transitionsSql(transitions);
        transactions.run("apply " + transitions.size() + " transitions", () -> transactions.execute(sql));
    }

    /** The transitions' SQL follows the inserts in their multi-statement: one round trip, one commit. */
    @Override
    public List<Long> insertAndApply(List<Message> messages, List<Transition> transitions) {
        if (messages.isEmpty() || transitions.isEmpty()) {
            return MessageLog.super.insertAndApply(messages, transitions);
        }
        String thread = Thread.currentThread().getName();
        String sql = transitionsSql(transitions);
        return transactions.run("insert " + messages.size() + " messages and apply " + transitions.size()
                + " transitions", () -> insertAll(messages, thread, sql));
    }

    private String transitionsSql(List<Transition> transitions) {
        StatusChanges.Batch batch = StatusChanges.Batch.of(StatusChanges.fold(transitions));
        return LiteralSql.transitions(transitions.stream().map(t -> Rows.statusLogRow(t, host)).toList(), batch);
    }

    @Override
    public Optional<StoredMessage> find(long id) {
        return transactions.run("find message " + id,
                () -> Optional.ofNullable(mapper.findMessage(id)).map(Rows::stored));
    }

    @Override
    public List<StoredMessage> findAll(List<Long> ids) {
        return ids.isEmpty() ? List.of()
                : transactions.run("find " + ids.size() + " messages", () -> stored(mapper.findMessages(ids)));
    }

    @Override
    public Optional<Long> findIdByKey(String topic, String bizKey) {
        return transactions.run("find the message of a business key",
                () -> Optional.ofNullable(mapper.findIdByKey(topic, bizKey)));
    }

    @Override
    public List<StoredMessage> findByKey(String bizKey) {
        return transactions.run("find the messages of a business key in any topic",
                () -> stored(mapper.findMessagesByKey(bizKey)));
    }

    @Override
    public boolean replace(long id, String body, long dueTime, Transition transition) {
        return transactions.run("replace message " + id, () -> {
            if (mapper.replaceContent(id, body, Rows.text(dueTime), Rows.text(transition.changedAt())) == 0) {
                return false;
            }
            transactions.execute(LiteralSql.insertStatusLogRows(List.of(Rows.statusLogRow(transition, host))));
            return true;
        });
    }

    @Override
    public List<StoredMessage> findPending(long afterId, int limit) {
        return transactions.run("page pending messages",
                () -> stored(mapper.findInStatuses(Statuses.PENDING, afterId, limit)));
    }

    @Override
    public List<StoredMessage> findWaitPut(long updatedBefore, int limit) {
        return transactions.run("find WAIT_PUT messages",
                () -> stored(mapper.findWaitPut(Rows.text(updatedBefore), limit)));
    }

    @Override
    public List<StoredMessage> findOverdue(long dueBefore, long afterId, int limit) {
        return transactions.run("find overdue messages",
                () -> stored(mapper.findDueBefore(Statuses.SCHEDULED, Rows.text(dueBefore), afterId, limit)));
    }

    @Override
    public int purgeTerminal(long before, int limit, String topic, Collection<String> except) {
        return transactions.run("purge terminal messages", () -> {
            List<Long> ids = mapper.findIdsBefore(Statuses.TERMINAL, Rows.text(before), topic, except, limit);
            if (ids.isEmpty()) {
                return 0;
            }
            // the rows first: a second instance purging the same messages waits for them, then deletes none
            int purged = transactions.execute(LiteralSql.deleteTerminalMessages(ids));
            transactions.execute(LiteralSql.deleteStatusLogRows(ids) + ";COMMIT");
            return purged;
        });
    }

    @Override
    public List<StoredMessage> search(MessageQuery q, int limit) {
        return transactions.run("search messages", () -> stored(mapper.search(q.topic(), q.statuses(), q.bizKey(),
                q.ids(), text(q.createdFrom()), text(q.createdTo()), text(q.dueAfter()), text(q.dueBefore()),
                q.newestFirst(), q.beyondId(), limit)));
    }

    private static String text(Long epochMs) {
        return epochMs == null ? null : Rows.text(epochMs);
    }

    /** See {@link MovesWhereStill}. */
    @Override
    public List<Long> applyWhereStill(List<Transition> transitions) {
        return transitions.isEmpty() ? List.of() : transactions.run("apply " + transitions.size()
                + " transitions where their messages still are", () -> movesWhereStill.apply(transitions));
    }

    private static List<StoredMessage> stored(List<MessageRow> rows) {
        return rows.stream().map(Rows::stored).toList();
    }

    @Override
    public List<Transition> history(long id) {
        return transactions.run("read the history of message " + id,
                () -> mapper.findStatusLog(id, Statuses.TERMINAL).stream().map(Rows::transition).toList());
    }

    /** Inserts the messages, then runs {@code end}: statements ending in {@code COMMIT}. */
    private List<Long> insertAll(List<Message> messages, String thread, String end) {
        try {
            List<Message> ordered = messages.stream().sorted(BY_KEY).toList();
            List<StatusLogRow> logRows = ordered.stream().map(m -> Rows.firstStatusLogRow(m, host, thread)).toList();
            LiteralSql.insertAll(ordered.stream().map(Rows::newMessage).toList(), logRows, STATEMENT_CHARS, end)
                    .forEach(transactions::execute);
            return messages.stream().map(Message::id).toList();
        } catch (DataAccessException e) {
            if (!Transactions.hasErrorCode(e, Transactions.ER_DUP_ENTRY)) {
                throw e;
            }
            transactions.execute("ROLLBACK");
        }
        log.debug("a batch of {} messages holds a taken (topic, bizKey); inserting them one by one", messages.size());
        List<Long> ids = insertOneByOne(messages, thread);
        transactions.execute(end);
        return ids;
    }

    /** Keeps the first message of each (topic, bizKey), in the batch or already stored, and answers its id. */
    private List<Long> insertOneByOne(List<Message> messages, String thread) {
        Long[] ids = new Long[messages.size()];
        IntStream.range(0, messages.size()).boxed()
                .sorted(Comparator.comparing(messages::get, BY_KEY))
                .forEach(i -> {
                    Message message = messages.get(i);
                    Long taken = insertUnlessTaken(message, thread);
                    ids[i] = taken == null ? message.id() : taken;
                });
        return List.of(ids);
    }

    /**
     * Inserts a message with its first status log row and returns null, or, when its (topic, bizKey) is taken, inserts
     * neither (the failed row's statement stops the multi-statement) and returns the id of the message holding it.
     */
    private Long insertUnlessTaken(Message message, String thread) {
        try {
            transactions.execute(LiteralSql.insert(Rows.newMessage(message),
                    Rows.firstStatusLogRow(message, host, thread)));
            return null;
        } catch (DataAccessException e) {
            if (!Transactions.hasErrorCode(e, Transactions.ER_DUP_ENTRY)) {
                throw e;
            }
        }
        Long holder = message.bizKey() == null ? null : mapper.lockIdByKey(message.topic(), message.bizKey());
        if (holder == null) {
            throw new IllegalStateException("message id " + message.id() + " is already taken; this is a bug");
        }
        return holder;
    }
}
