package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Long-polls parked in memory: a waiting consumer holds no thread, only a future. Per topic, the buckets that
 * may hold ready ids are kept as candidates; a move (local or signalled) adds them, a pop that comes back short
 * drops them, a sweep repairs lost signals. One drain per topic at a time pops for the waiters in arrival order.
 * A drain runs on a thread that is blocked waiting for its own pop of the topic when there is one (it has nothing
 * better to do, and is woken anyway when its answer comes), else on a drain thread: one thread wake-up per delivery
 * instead of two.
 */
final class WaitingConsumers {
    private static final Logger log = LoggerFactory.getLogger(WaitingConsumers.class);

    /** Told of each reservation this instance makes, so the reaper knows its deadline. */
    @FunctionalInterface
    interface ReservationListener {
        void reserved(int bucket, long deadline);
    }

    private final ScheduleStore store;
    private final JournalWriter journal;
    private final ReservationListener reservations;
    private final Clock clock;
    private final Executor drainer;
    private final ScheduledExecutorService timer;
    private final BucketLocks locks;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    WaitingConsumers(ScheduleStore store, JournalWriter journal, ReservationListener reservations, BucketLocks locks,
                     Clock clock, Executor drainer, ScheduledExecutorService timer) {
        this.store = store;
        this.locks = locks;
        this.journal = journal;
        this.reservations = reservations;
        this.clock = clock;
        this.drainer = drainer;
        this.timer = timer;
    }

    /** Up to {@code count} messages of a topic, as soon as any is ready; an empty list after {@code timeoutMs}. */
    CompletableFuture<List<Message>> pop(String topicName, int count, long timeoutMs) {
        Topic topic = topic(topicName);
        Waiter waiter = new Waiter(topic, count);
        topic.waiters.add(waiter);
        if (timeoutMs <= 0) {
            drain(topic, waiter);
            expire(topic, waiter);
            return waiter;
        }
        drainHere(topic, waiter);
        if (!waiter.isDone()) {
            timer.schedule(() -> expire(topic, waiter), timeoutMs, TimeUnit.MILLISECONDS);
        }
        return waiter;
    }

    /**
     * When ready ids may be waiting and no drain runs, pops on the caller's thread: under load a consumer then
     * gets its messages in its own call, with no hand-off to a drain thread and no asynchronous reply.
     */
    private void drainHere(Topic topic, Waiter caller) {
        if (!topic.candidates.isEmpty() && topic.draining.compareAndSet(false, true)) {
            drainAndRelease(topic, caller);
        }
    }

    /** Ready ids arrived in a bucket of a topic. */
    void ready(int bucket, String topicName) {
        Topic topic = topic(topicName);
        topic.candidates.add(bucket);
        startDrain(topic);
    }

    /** Looks for ready ids of every topic with waiting consumers; repairs a lost signal. */
    void sweep() {
        for (Topic topic : topics.values()) {
            if (topic.waiters.isEmpty()) {
                continue;
            }
            for (int b = 0; b < store.buckets(); b++) {
                if (store.readyCount(b, topic.name) > 0) {
                    topic.candidates.add(b);
                }
            }
            startDrain(topic);
        }
    }

    int waiting(String topicName) {
        Topic topic = topics.get(topicName);
        return topic == null ? 0 : topic.waiters.size();
    }

    private Topic topic(String name) {
        return topics.computeIfAbsent(name, Topic::new);
    }

    private void startDrain(Topic topic) {
        if (!topic.waiters.isEmpty() && !topic.candidates.isEmpty() && topic.draining.compareAndSet(false, true)) {
            for (Waiter blocked : topic.blocked) {
                if (blocked.handDrain()) {
                    return;
                }
            }
            drainer.execute(() -> drainAndRelease(topic, null));
        }
    }

    /** Runs the drain this thread was given, then lets the next one start. */
    private void drainAndRelease(Topic topic, Waiter caller) {
        try {
            drain(topic, caller);
        } finally {
            topic.draining.set(false);
        }
        startDrain(topic);
    }

    /**
     * Answers the waiting consumers in arrival order while messages last. On a request thread it stops once that
     * request's own consumer ({@code caller}; null on a drain thread) is answered, so the request is not held up
     * serving the consumers that come after it while a backlog lasts.
     */
    private void drain(Topic topic, Waiter caller) {
        Waiter waiter;
        while ((caller == null || !caller.isDone()) && (waiter = topic.waiters.peek()) != null) {
            if (!waiter.claimed.compareAndSet(false, true)) {
                topic.waiters.remove(waiter);
                continue;
            }
            List<Message> got = take(topic, waiter.count);
            if (got.isEmpty()) {
                waiter.claimed.set(false);
                return;
            }
            topic.waiters.remove(waiter);
            waiter.answer(got);
        }
    }

    private List<Message> take(Topic topic, int count) {
        List<Message> got = new ArrayList<>(count);
        int buckets = store.buckets();
        for (int i = 0; i < buckets && got.size() < count && !topic.candidates.isEmpty(); i++) {
            int bucket = (topic.cursor + i) % buckets;
            if (!topic.candidates.remove(bucket)) {
                continue;
            }
            int wanted = count - got.size();
            List<Message> popped;
            try {
                popped = locks.shared(bucket, () -> popAndRecord(bucket, topic.name, wanted));
            } catch (RuntimeException e) {
                log.warn("pop from bucket {} of topic {} failed ({}); the ready sweep will look again",
                        bucket, topic.name, e.toString());
                break;
            }
            if (popped.size() == wanted) {
                topic.candidates.add(bucket);
            }
            got.addAll(popped);
        }
        topic.cursor = (topic.cursor + 1) % buckets;
        return got;
    }

    private List<Message> popAndRecord(int bucket, String topic, int count) {
        long now = clock.millis();
        List<Message> popped = store.pop(bucket, topic, count, now);
        for (Message m : popped) {
            journal.record(Transition.of(m.id(), MessageStatus.READY, MessageStatus.RESERVED, now,
                    store.bucketName(bucket)).withAttempts(m.attempts()));
            reservations.reserved(bucket, now + m.ttrMs());
        }
        return popped;
    }

    private void expire(Topic topic, Waiter waiter) {
        if (waiter.claimed.compareAndSet(false, true)) {
            topic.waiters.remove(waiter);
            waiter.answer(List.of());
        } else if (!waiter.isDone()) {
            timer.schedule(() -> expire(topic, waiter), 1, TimeUnit.MILLISECONDS);
        }
    }

    private static final class Topic {
        final String name;
        final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
        /** Waiters whose caller is blocked in {@link Waiter#get(long, TimeUnit)}, ready to run a drain. */
        final Queue<Waiter> blocked = new ConcurrentLinkedQueue<>();
        final Set<Integer> candidates = ConcurrentHashMap.newKeySet();
        final AtomicBoolean draining = new AtomicBoolean();
        volatile int cursor;

        Topic(String name) {
            this.name = name;
        }
    }

    /**
     * A waiting consumer's answer. While a thread is blocked in {@link #get(long, TimeUnit)} on it, that thread runs
     * the drains of the topic it is given.
     */
    private final class Waiter extends CompletableFuture<List<Message>> {
        private static final int IDLE = 0;
        private static final int BLOCKED = 1;
        private static final int DRAIN = 2;

        final Topic topic;
        final int count;
        final AtomicBoolean claimed = new AtomicBoolean();
        private final AtomicInteger caller = new AtomicInteger(IDLE);
        private volatile Thread thread;

        Waiter(Topic topic, int count) {
            this.topic = topic;
            this.count = count;
        }

        void answer(List<Message> messages) {
            complete(messages);
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }

        /** Gives the topic's drain, which the caller holds, to this waiter's blocked thread; false when none. */
        boolean handDrain() {
            if (isDone() || !caller.compareAndSet(BLOCKED, DRAIN)) {
                return false;
            }
            LockSupport.unpark(thread);
            return true;
        }

        @Override
        public List<Message> get(long timeout, TimeUnit unit)
                throws InterruptedException, ExecutionException, TimeoutException {
            if (isDone() || !caller.compareAndSet(IDLE, BLOCKED)) {
                return super.get(timeout, unit);
            }
            thread = Thread.currentThread();
            topic.blocked.add(this);
            long deadline = System.nanoTime() + unit.toNanos(timeout);
            try {
                while (true) {
                    if (caller.compareAndSet(DRAIN, BLOCKED)) {
                        drainAndRelease(topic, this);
                        continue;
                    }
                    long left = deadline - System.nanoTime();
                    if (isDone() || left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            } finally {
                topic.blocked.remove(this);
                if (!caller.compareAndSet(BLOCKED, IDLE)) {
                    // given a drain while leaving: run it, or the topic's drains stop
                    caller.set(IDLE);
                    drainAndRelease(topic, this);
                }
                thread = null;
            }
            if (!isDone()) {
                throw new TimeoutException();
            }
            return super.get();
        }
    }
}
