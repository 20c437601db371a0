package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The message log in memory, for engine unit tests; held to the same contract as the MySQL one (the log keeps no
 * attempts or due times).
 */
public final class InMemoryMessageLog implements MessageLog {
    private final Map<Long, StoredMessage> rows = new HashMap<>();
    private final Map<String, Long> keys = new HashMap<>();
    private final List<Transition> log = new ArrayList<>();

    @Override
    public synchronized List<Long> insert(List<Message> messages) {
        List<Long> holders = new ArrayList<>();
        for (Message m : messages) {
            String key = m.bizKey() == null ? null : m.topic() + "\u0000" + m.bizKey();
            Long taken = key == null ? null : keys.get(key);
            if (taken != null) {
                holders.add(taken);
                continue;
            }
            if (key != null) {
                keys.put(key, m.id());
            }
            rows.put(m.id(), new StoredMessage(m, MessageStatus.WAIT_PUT, m.createTime()));
            log.add(new Transition(m.id(), null, MessageStatus.WAIT_PUT, m.createTime(), null, null, null,
                    Thread.currentThread().getName(), null));
            holders.add(m.id());
        }
        return holders;
    }

    @Override
    public synchronized void apply(List<Transition> transitions) {
        for (Transition t : transitions) {
            log.add(new Transition(t.messageId(), t.from(), t.to(), t.changedAt(), t.bucket(), null, null, t.thread(),
                    t.note()));
            StoredMessage row = rows.get(t.messageId());
            if (row == null || !moves(row, t)) {
                continue;
            }
            Message m = row.message();
            if (t.attempts() != null) {
                m = m.withAttempts(t.attempts());
            }
            if (t.dueTime() != null) {
                m = m.withDueTime(t.dueTime());
            }
            rows.put(m.id(), new StoredMessage(m, t.to(), t.changedAt()));
        }
    }

    /**
     * As the SQL's guard: a transition that ends a message's life in Redis (not EXPIRED, which a restore decides) also
     * moves a row changed later in that life.
     */
    private boolean moves(StoredMessage row, Transition t) {
        boolean requeue = isRequeue(t) && row.status() == t.from();
        boolean endsLife = t.to().isTerminal() && t.to() != MessageStatus.EXPIRED && !t.from().isTerminal();
        return (requeue || !row.status().isTerminal())
                && (row.updateTime() <= t.changedAt() || endsLife && !requeuedAfter(t.messageId(), t.changedAt()));
    }

    private static boolean isRequeue(Transition t) {
        return t.from() == MessageStatus.DEAD || t.from() == MessageStatus.EXPIRED;
    }

    private boolean requeuedAfter(long id, long at) {
        return log.stream().anyMatch(l -> l.messageId() == id && isRequeue(l) && l.changedAt() > at);
    }

    @Override
    public synchronized Optional<StoredMessage> find(long id) {
        return Optional.ofNullable(rows.get(id));
    }

    @Override
    public synchronized List<StoredMessage> findAll(List<Long> ids) {
        return ids.stream().map(rows::get).filter(Objects::nonNull).toList();
    }

    @Override
    public synchronized Optional<Long> findIdByKey(String topic, String bizKey) {
        return Optional.ofNullable(keys.get(topic + "\u0000" + bizKey));
    }

    @Override
    public synchronized List<StoredMessage> findByKey(String bizKey) {
        return rows.values().stream().filter(s -> bizKey.equals(s.message().bizKey())).toList();
    }

    @Override
    public synchronized boolean replace(long id, String body, long dueTime, Transition transition) {
        StoredMessage row = rows.get(id);
        if (row == null || (row.status() != MessageStatus.WAIT_PUT && row.status() != MessageStatus.DELAY)) {
            return false;
        }
        Message m = row.message();
        rows.put(id, new StoredMessage(new Message(m.id(), m.topic(), m.bizKey(), body, m.priority(), m.createTime(),
                dueTime, m.ttrMs(), m.maxAttempts(), m.retryDelays(), m.attempts()), row.status(),
                transition.changedAt()));
        log.add(new Transition(id, transition.from(), transition.to(), transition.changedAt(), transition.bucket(),
                null, null, transition.thread(), transition.note()));
        return true;
    }

    @Override
    public synchronized List<StoredMessage> findPending(long afterId, int limit) {
        return select(r -> !r.status().isTerminal() && r.message().id() > afterId, limit);
    }

    @Override
    public synchronized List<StoredMessage> findWaitPut(long updatedBefore, int limit) {
        return rows.values().stream()
                .filter(r -> r.status() == MessageStatus.WAIT_PUT && r.updateTime() < updatedBefore)
                .sorted(Comparator.comparingLong(r -> r.message().dueTime())).limit(limit).toList();
    }

    @Override
    public synchronized List<StoredMessage> findOverdue(long dueBefore, long afterId, int limit) {
        return select(r -> !r.status().isTerminal() && r.status() != MessageStatus.WAIT_PUT
                && r.message().dueTime() < dueBefore && r.message().id() > afterId, limit);
    }

    @Override
    public synchronized int purgeTerminal(long before, int limit, String topic, Collection<String> except) {
        List<Long> ids = select(r -> r.status().isTerminal() && r.updateTime() < before
                && r.message().dueTime() < before
                && (topic != null ? topic.equals(r.message().topic()) : !except.contains(r.message().topic())),
                limit).stream().map(r -> r.message().id()).toList();
        ids.forEach(rows::remove);
        log.removeIf(t -> ids.contains(t.messageId()));
        keys.values().removeIf(ids::contains);
        return ids.size();
    }

    @Override
    public synchronized List<StoredMessage> search(MessageQuery query, int limit) {
        Comparator<StoredMessage> byId = Comparator.comparingLong(r -> r.message().id());
        return rows.values().stream().filter(query::matches)
                .sorted(query.newestFirst() ? byId.reversed() : byId).limit(limit).toList();
    }

    @Override
    public synchronized List<Long> applyWhereStill(List<Transition> transitions) {
        List<Transition> moving = transitions.stream().filter(t -> rows.containsKey(t.messageId())
                && rows.get(t.messageId()).status() == t.from()
                && rows.get(t.messageId()).updateTime() < t.changedAt()).toList();
        apply(moving);
        return moving.stream().map(Transition::messageId).toList();
    }

    private List<StoredMessage> select(Predicate<StoredMessage> filter, int limit) {
        return rows.values().stream().filter(filter)
                .sorted(Comparator.comparingLong(r -> r.message().id())).limit(limit).toList();
    }

    @Override
    public synchronized List<Transition> history(long id) {
        return log.stream().filter(t -> t.messageId() == id)
                .sorted(Comparator.comparingLong(Transition::changedAt).thenComparing(t -> t.to().isTerminal()))
                .toList();
    }
}
