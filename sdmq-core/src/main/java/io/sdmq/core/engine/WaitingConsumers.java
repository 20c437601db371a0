package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.Reservations;
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
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Long-polls parked in memory: a waiting consumer holds no thread, only a future. Per topic, the buckets that
 * may hold ready ids are kept as candidates; a move (local or signalled) adds them, a pop that comes back short
 * drops them, a sweep repairs lost signals. One drain per topic at a time pops for the waiters in arrival order,
 * on the caller's thread when a pop finds candidates and no drain running, else on a drain thread.
 */
final class WaitingConsumers {
    private static final Logger log = LoggerFactory.getLogger(WaitingConsumers.class);

    private final Reservations reservations;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final BucketLocks locks;
    private final MessageEvents events;
    private final TopicGate gate;
    private final Clock clock;
    private final Executor drainer;
    private final ScheduledExecutorService timer;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();
    private volatile boolean closing;

    WaitingConsumers(Reservations reservations, StatusLog statusLog, Wakeups wakeups, BucketLocks locks, TopicGate gate,
                     MessageEvents events, Clock clock, Executor drainer, ScheduledExecutorService timer) {
        this.reservations = reservations;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.locks = locks;
        this.events = events;
        this.gate = gate;
        this.clock = clock;
        this.drainer = drainer;
        this.timer = timer;
    }

    /**
     * Up to {@code count} messages of a topic, as soon as any is ready, or {@code lingerMs} after the first one came
     * when fewer than {@code count} have; what it has (maybe nothing) after {@code timeoutMs}.
     */
    CompletableFuture<List<Message>> pop(String topicName, int count, long timeoutMs, long lingerMs) {
        Topic topic = topic(topicName);
        Waiter waiter = new Waiter(count, lingerMs);
        topic.waiters.add(waiter);
        // read after the add: either this pop sees the flag, or answerAll sees this waiter
        if (closing) {
            expire(topic, waiter);
            return waiter;
        }
        if (timeoutMs <= 0) {
            drain(topic, waiter);
            expire(topic, waiter);
            return waiter;
        }
        // under load a consumer then gets its messages in its own call, with no hand-off to a drain thread
        if (!topic.candidates.isEmpty() && topic.draining.compareAndSet(false, true)) {
            drainAndRelease(topic, waiter);
        }
        if (!waiter.isDone()) {
            timer.schedule(() -> expire(topic, waiter), timeoutMs, TimeUnit.MILLISECONDS);
        }
        return waiter;
    }

    /** Ready ids arrived in a bucket of a topic. */
    void ready(int bucket, String topicName) {
        Topic topic = topic(topicName);
        topic.candidates.add(bucket);
        startDrain(topic);
    }

    /** The topics Redis has ready ids of, found at start: their consumers need no signal to get them. */
    void findReadyTopics() {
        try {
            for (int b = 0; b < reservations.buckets(); b++) {
                for (String topic : reservations.readyTopics(b)) {
                    ready(b, topic);
                }
            }
        } catch (RuntimeException e) {
            log.warn("could not list ready topics in Redis ({}); consumers find them by the sweep", e.toString());
        }
    }

    /** Looks for ready ids of every topic with waiting consumers; repairs a lost signal. */
    void sweep() {
        for (Topic topic : topics.values()) {
            if (topic.waiters.isEmpty()) {
                continue;
            }
            for (int b = 0; b < reservations.buckets(); b++) {
                if (reservations.readyCount(b, topic.name) > 0) {
                    topic.candidates.add(b);
                }
            }
            startDrain(topic);
        }
    }

    /**
     * The first step of a shutdown: answers every parked pop with what it has (empty, unless a lingering one got
     * some), and from now on every pop at once, empty; nothing parks any more.
     *
     * @return how many parked pops were answered
     */
    int answerAll() {
        closing = true;
        int answered = 0;
        for (Topic topic : topics.values()) {
            for (Waiter waiter : topic.waiters) {
                expire(topic, waiter);
                answered++;
            }
        }
        return answered;
    }

    /** A topic's limits may let more through now (a reservation of it ended): its waiting consumers look again. */
    void retry(String topicName) {
        Topic topic = topics.get(topicName);
        if (topic != null) {
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
            drainer.execute(() -> drainAndRelease(topic, null));
        }
    }

    /** Runs the drain this thread holds, then lets the next one start. */
    private void drainAndRelease(Topic topic, Waiter caller) {
        try {
            drain(topic, caller);
        } finally {
            topic.draining.set(false);
        }
        startDrain(topic);
    }

    /**
     * Answers the waiting consumers in arrival order while messages last. A consumer that lingers keeps what it got
     * and stays first until its batch is full or its linger ends. On a request thread it stops once that request's
     * own consumer ({@code caller}; null on a drain thread) is answered, so the request is not held up serving the
     * consumers that come after it while a backlog lasts.
     */
    private void drain(Topic topic, Waiter caller) {
        Waiter waiter;
        while ((caller == null || !caller.isDone()) && (waiter = topic.waiters.peek()) != null) {
            if (!waiter.claimed.compareAndSet(false, true)) {
                topic.waiters.remove(waiter);
                continue;
            }
            List<Message> got = take(topic, waiter.count - waiter.got.size());
            waiter.got.addAll(got);
            if (waiter.got.size() < waiter.count && (waiter.got.isEmpty() || waiter.lingerMs > 0)) {
                if (!got.isEmpty() && !waiter.lingering) {
                    waiter.lingering = true;
                    Waiter lingering = waiter;
                    timer.schedule(() -> expire(topic, lingering), lingering.lingerMs, TimeUnit.MILLISECONDS);
                }
                waiter.claimed.set(false);
                return;
            }
            topic.waiters.remove(waiter);
            waiter.complete(List.copyOf(waiter.got));
        }
    }

    /** What the topic's settings let this drain take now: all it wants, some, or nothing (paused, limited). */
    private List<Message> take(Topic topic, int count) {
        return gate.take(topic.name, count, clock, (allowed, times) -> take(topic, allowed, times));
    }

    private List<Message> take(Topic topic, int count, LongSupplier times) {
        List<Message> got = new ArrayList<>(count);
        int buckets = reservations.buckets();
        for (int i = 0; i < buckets && got.size() < count && !topic.candidates.isEmpty(); i++) {
            int bucket = (topic.cursor + i) % buckets;
            if (!topic.candidates.remove(bucket)) {
                continue;
            }
            int wanted = count - got.size();
            List<Message> popped;
            try {
                popped = locks.shared(bucket, () -> popAndRecord(bucket, topic.name, wanted, times.getAsLong()));
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

    private List<Message> popAndRecord(int bucket, String topic, int count, long now) {
        List<Message> popped = reservations.pop(bucket, topic, count, now);
        for (Message m : popped) {
            statusLog.record(Transition.of(m.id(), MessageStatus.READY, MessageStatus.RESERVED, now,
                    reservations.bucketName(bucket)).withAttempts(m.attempts()));
            wakeups.reserved(bucket, now + m.ttrMs());
            events.delivered(topic, m.dueTime(), now);
        }
        return popped;
    }

    /** Answers a waiter with what it has: at its timeout, or at the end of its linger. */
    private void expire(Topic topic, Waiter waiter) {
        if (waiter.claimed.compareAndSet(false, true)) {
            topic.waiters.remove(waiter);
            waiter.complete(List.copyOf(waiter.got));
        } else if (!waiter.isDone()) {
            timer.schedule(() -> expire(topic, waiter), 1, TimeUnit.MILLISECONDS);
        }
    }

    private static final class Topic {
        final String name;
        final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
        final Set<Integer> candidates = ConcurrentHashMap.newKeySet();
        final AtomicBoolean draining = new AtomicBoolean();
        volatile int cursor;

        Topic(String name) {
            this.name = name;
        }
    }

    /**
     * A waiting consumer's answer; claimed by the one drain or expiry that answers it. What it got so far, and
     * whether its linger started, are read and written only by the thread that holds the claim.
     */
    private static final class Waiter extends CompletableFuture<List<Message>> {
        final int count;
        final long lingerMs;
        final AtomicBoolean claimed = new AtomicBoolean();
        final List<Message> got = new ArrayList<>();
        boolean lingering;

        Waiter(int count, long lingerMs) {
            this.count = count;
            this.lingerMs = lingerMs;
        }
    }
}
