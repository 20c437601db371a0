package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** The schedule ports in memory, for engine unit tests; held to the same contract as the Redis ones. */
public final class InMemoryScheduleStore implements SchedulePorts {
    /** How long a finished, deleted or dead id is remembered, as in Redis. */
    public static final long GONE_MS = 5 * 60_000L;

    private final Bucket[] buckets;
    private final List<Long> defaultRetryDelays;
    private volatile long coldAfterMs;

    /** @param coldAfter messages due further ahead than this from the time they are pushed are kept cold (0: none) */
    public InMemoryScheduleStore(int buckets, List<Long> defaultRetryDelays, Duration coldAfter) {
        this.buckets = new Bucket[buckets];
        for (int b = 0; b < buckets; b++) {
            this.buckets[b] = new Bucket();
        }
        this.defaultRetryDelays = List.copyOf(defaultRetryDelays);
        this.coldAfterMs = coldAfter.toMillis();
    }

    /** Changes the hot window, as a server restarted with another one would. */
    public void coldAfter(Duration coldAfter) {
        coldAfterMs = coldAfter.toMillis();
    }

    private long coldFrom(long now) {
        return coldAfterMs == 0 ? NONE : now + coldAfterMs;
    }

    private record Entry(long id, long time) {
        static final Comparator<Entry> ORDER =
                Comparator.comparingLong(Entry::time).thenComparing(e -> Long.toString(e.id()));
    }

    private static final class Bucket {
        final Map<Long, Message> meta = new HashMap<>();
        final TreeSet<Entry> delay = new TreeSet<>(Entry.ORDER);
        final Map<Long, Entry> delayById = new HashMap<>();
        final TreeSet<Entry> reserved = new TreeSet<>(Entry.ORDER);
        final Map<Long, Entry> reservedById = new HashMap<>();
        final Map<String, Deque<Long>> ready = new HashMap<>();
        final Map<Long, Long> gone = new HashMap<>();
        final TreeSet<Entry> cold = new TreeSet<>(Entry.ORDER);
        final Map<Long, Entry> coldById = new HashMap<>();

        void forget(long id, long now) {
            gone.put(id, now);
            gone.values().removeIf(time -> time < now - GONE_MS);
        }

        void add(TreeSet<Entry> set, Map<Long, Entry> index, long id, long time) {
            Entry entry = new Entry(id, time);
            set.add(entry);
            index.put(id, entry);
        }

        boolean remove(TreeSet<Entry> set, Map<Long, Entry> index, long id) {
            Entry entry = index.remove(id);
            return entry != null && set.remove(entry);
        }
    }

    /** Loses everything, as Redis does on FLUSHALL or a restart without persistence. */
    public synchronized void loseEverything() {
        for (int b = 0; b < buckets.length; b++) {
            buckets[b] = new Bucket();
        }
    }

    /** The cold ids of every bucket, bucket by bucket, earliest first in each. */
    public synchronized List<Long> coldIds() {
        List<Long> ids = new ArrayList<>();
        for (Bucket b : buckets) {
            b.cold.forEach(entry -> ids.add(entry.id()));
        }
        return ids;
    }

    @Override
    public int buckets() {
        return buckets.length;
    }

    @Override
    public String bucketName(int bucket) {
        return "mem:{b" + bucket + "}:delay";
    }

    @Override
    public synchronized boolean push(int bucket, List<Message> messages, long now) {
        long coldFrom = coldFrom(now);
        Bucket b = buckets[bucket];
        Set<Long> written = new HashSet<>();
        for (Message message : messages) {
            if (message.score() >= coldFrom) {
                if (!b.meta.containsKey(message.id()) && !b.coldById.containsKey(message.id())) {
                    b.add(b.cold, b.coldById, message.id(), message.score());
                }
            } else if (b.meta.putIfAbsent(message.id(), message) == null) {
                b.add(b.delay, b.delayById, message.id(), message.score());
                written.add(message.id());
            }
        }
        return !b.delay.isEmpty() && written.contains(b.delay.first().id());
    }

    @Override
    public synchronized ColdIds coldUntil(int bucket, long until, int limit) {
        Bucket b = buckets[bucket];
        List<Long> ids = new ArrayList<>();
        for (Entry entry : b.cold) {
            if (entry.time() > until || ids.size() == limit) {
                return new ColdIds(ids, entry.time());
            }
            ids.add(entry.id());
        }
        return new ColdIds(ids, NONE);
    }

    @Override
    public synchronized List<Boolean> warm(int bucket, List<Message> messages) {
        Bucket b = buckets[bucket];
        List<Boolean> warmed = new ArrayList<>(messages.size());
        for (Message message : messages) {
            boolean cold = b.remove(b.cold, b.coldById, message.id());
            if (cold && b.meta.putIfAbsent(message.id(), message) == null) {
                b.add(b.delay, b.delayById, message.id(), message.score());
            }
            warmed.add(cold);
        }
        return warmed;
    }

    @Override
    public synchronized List<Moved> pushReady(int bucket, List<Message> messages) {
        Bucket b = buckets[bucket];
        List<Moved> added = new ArrayList<>();
        for (Message message : messages) {
            if (b.meta.putIfAbsent(message.id(), message) == null) {
                b.ready.computeIfAbsent(message.topic(), t -> new ArrayDeque<>()).addLast(message.id());
                added.add(new Moved(message.id(), message.topic()));
            }
        }
        return added;
    }

    @Override
    public synchronized MoveResult moveDue(int bucket, long now, int limit) {
        Bucket b = buckets[bucket];
        List<Moved> moved = new ArrayList<>();
        while (!b.delay.isEmpty() && b.delay.first().time() <= now && moved.size() < limit) {
            long id = b.delay.first().id();
            b.remove(b.delay, b.delayById, id);
            Message m = b.meta.get(id);
            if (m != null) {
                b.ready.computeIfAbsent(m.topic(), t -> new ArrayDeque<>()).addLast(id);
                moved.add(new Moved(id, m.topic()));
            }
        }
        return new MoveResult(moved, b.delay.isEmpty() ? NONE : b.delay.first().time());
    }

    @Override
    public synchronized List<Message> pop(int bucket, String topic, int count, long now, long reservedUntil) {
        Bucket b = buckets[bucket];
        Deque<Long> ready = b.ready.getOrDefault(topic, new ArrayDeque<>());
        List<Message> popped = new ArrayList<>();
        while (popped.size() < count && !ready.isEmpty()) {
            long id = ready.pollFirst();
            Message m = b.meta.get(id);
            if (m != null) {
                Message delivered = m.withAttempts(m.attempts() + 1);
                b.meta.put(id, delivered);
                b.add(b.reserved, b.reservedById, id, Math.max(now + m.ttrMs(), reservedUntil));
                popped.add(delivered);
            }
        }
        return popped;
    }

    @Override
    public synchronized List<Optional<String>> finish(int bucket, List<Long> ids, long now) {
        Bucket b = buckets[bucket];
        List<Optional<String>> finished = new ArrayList<>(ids.size());
        for (long id : ids) {
            boolean reserved = b.remove(b.reserved, b.reservedById, id);
            Message m = reserved ? b.meta.remove(id) : null;
            if (reserved) {
                b.forget(id, now);
            }
            finished.add(reserved ? Optional.of(m == null ? "" : m.topic()) : Optional.empty());
        }
        return finished;
    }

    @Override
    public synchronized Optional<MessageStatus> delete(int bucket, long id, long now) {
        Bucket b = buckets[bucket];
        if (b.remove(b.cold, b.coldById, id)) {
            b.forget(id, now);
            return Optional.of(MessageStatus.DELAY);
        }
        if (b.meta.remove(id) == null) {
            return Optional.empty();
        }
        b.forget(id, now);
        if (b.remove(b.delay, b.delayById, id)) {
            return Optional.of(MessageStatus.DELAY);
        }
        return Optional.of(b.remove(b.reserved, b.reservedById, id) ? MessageStatus.RESERVED : MessageStatus.READY);
    }

    @Override
    public synchronized RequeueResult requeueExpired(int bucket, long now, int limit) {
        Bucket b = buckets[bucket];
        List<Requeued> requeued = new ArrayList<>();
        List<Message> dead = new ArrayList<>();
        while (!b.reserved.isEmpty() && b.reserved.first().time() <= now && requeued.size() + dead.size() < limit) {
            long id = b.reserved.first().id();
            b.remove(b.reserved, b.reservedById, id);
            Message m = b.meta.get(id);
            if (m == null) {
                continue;
            }
            if (m.attempts() >= m.maxAttempts()) {
                b.meta.remove(id);
                b.forget(id, now);
                dead.add(m);
                continue;
            }
            List<Long> delays = m.retryDelays() == null ? defaultRetryDelays : m.retryDelays();
            long due = now + delays.get(Math.min(m.attempts(), delays.size()) - 1);
            b.meta.put(id, m.withDueTime(due));
            b.add(b.delay, b.delayById, id, due + m.priority());
            requeued.add(new Requeued(id, m.topic(), m.attempts(), due));
        }
        return new RequeueResult(requeued, dead, b.reserved.isEmpty() ? NONE : b.reserved.first().time());
    }

    @Override
    public synchronized List<Restored> restore(int bucket, List<Restoring> messages, long now) {
        long coldFrom = coldFrom(now);
        Bucket b = buckets[bucket];
        List<Restored> outcomes = new ArrayList<>(messages.size());
        for (Restoring restoring : messages) {
            Message message = restoring.message();
            if (holds(bucket, message.id())) {
                outcomes.add(Restored.PRESENT);
            } else if (b.gone.containsKey(message.id())) {
                outcomes.add(Restored.GONE);
            } else if (restoring.score() >= coldFrom) {
                b.add(b.cold, b.coldById, message.id(), restoring.score());
                outcomes.add(Restored.WRITTEN);
            } else {
                b.meta.put(message.id(), message);
                b.add(b.delay, b.delayById, message.id(), restoring.score());
                outcomes.add(Restored.WRITTEN);
            }
        }
        return outcomes;
    }

    @Override
    public synchronized Optional<Nacked> nack(int bucket, long id, long now, Long delayMs, boolean dead) {
        Bucket b = buckets[bucket];
        if (!b.remove(b.reserved, b.reservedById, id) || !b.meta.containsKey(id)) {
            return Optional.empty();
        }
        Message m = b.meta.get(id);
        if (dead || m.attempts() >= m.maxAttempts()) {
            b.meta.remove(id);
            b.forget(id, now);
            return Optional.of(new Nacked(true, m));
        }
        List<Long> delays = m.retryDelays() == null || m.retryDelays().isEmpty() ? defaultRetryDelays : m.retryDelays();
        long wait = delayMs != null ? delayMs : delays.get(Math.min(Math.max(m.attempts(), 1), delays.size()) - 1);
        Message due = m.withDueTime(now + wait);
        b.meta.put(id, due);
        b.add(b.delay, b.delayById, id, due.score());
        return Optional.of(new Nacked(false, due));
    }

    @Override
    public synchronized OptionalLong touch(int bucket, long id, long now) {
        Bucket b = buckets[bucket];
        Message m = b.meta.get(id);
        if (m == null || !b.remove(b.reserved, b.reservedById, id)) {
            return OptionalLong.empty();
        }
        b.add(b.reserved, b.reservedById, id, now + m.ttrMs());
        return OptionalLong.of(now + m.ttrMs());
    }

    @Override
    public synchronized Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body) {
        Bucket b = buckets[bucket];
        Message m = b.meta.get(id);
        if (m == null) {
            return Optional.empty();
        }
        if (!b.remove(b.delay, b.delayById, id)) {
            return Optional.of(b.reservedById.containsKey(id) ? MessageStatus.RESERVED : MessageStatus.READY);
        }
        Message moved = new Message(m.id(), m.topic(), m.bizKey(), body == null ? m.body() : body, m.priority(),
                m.createTime(), dueTime, m.ttrMs(), m.maxAttempts(), m.retryDelays(), m.attempts());
        b.meta.put(id, moved);
        b.add(b.delay, b.delayById, id, moved.score());
        return Optional.of(MessageStatus.DELAY);
    }

    @Override
    public synchronized boolean holds(int bucket, long id) {
        return buckets[bucket].meta.containsKey(id) || buckets[bucket].coldById.containsKey(id);
    }

    @Override
    public synchronized boolean isEmpty(int bucket) {
        Bucket b = buckets[bucket];
        return b.meta.isEmpty() && b.delay.isEmpty() && b.reserved.isEmpty() && b.cold.isEmpty();
    }

    @Override
    public synchronized long readyCount(int bucket, String topic) {
        return buckets[bucket].ready.getOrDefault(topic, new ArrayDeque<>()).size();
    }

    @Override
    public synchronized Set<String> readyTopics(int bucket) {
        Set<String> topics = new TreeSet<>();
        buckets[bucket].ready.forEach((topic, ids) -> {
            if (!ids.isEmpty()) {
                topics.add(topic);
            }
        });
        return topics;
    }
}
