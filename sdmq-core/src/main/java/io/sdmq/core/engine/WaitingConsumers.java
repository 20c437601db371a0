package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.core.spi.Reservations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Long-polls parked in memory: a waiting consumer holds no thread, only a future. Per topic, the buckets that
 * may hold ready ids are kept as candidates; a move (local or signalled) adds them, a pop that comes back short
 * drops them, a sweep repairs lost signals. One drain per topic at a time pops for the waiters in arrival order,
 * on the caller's thread when a pop finds candidates and no drain running, else on a drain thread.
 */
final class WaitingConsumers {
    private static final Logger log = LoggerFactory.getLogger(WaitingConsumers.class);

    private final ReadyPops pops;
    private final Reservations reservations;
    private final Executor drainer;
    private final ScheduledExecutorService timer;
    private final Map<String, WaitingTopic> topics = new ConcurrentHashMap<>();
    private volatile boolean closing;

    WaitingConsumers(ReadyPops pops, Reservations reservations, Executor drainer, ScheduledExecutorService timer) {
        this.pops = pops;
        this.reservations = reservations;
        this.drainer = drainer;
        this.timer = timer;
    }

    /**
     * Up to {@code count} messages of a topic, as soon as any is ready, or {@code lingerMs} after the first one came
     * when fewer than {@code count} have; what it has (maybe nothing) after {@code timeoutMs}. Each is reserved for
     * {@code reserveMs} from its pop when that is longer than its time-to-run (0: never).
     */
    CompletableFuture<List<Message>> pop(String topicName, int count, long timeoutMs, long lingerMs,
                                         long reserveMs) {
        WaitingTopic topic = topic(topicName);
        Waiter waiter = new Waiter(count, lingerMs, reserveMs);
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

    /** Ready ids arrived in a bucket of a topic, how many unknown (another instance moved them). */
    void ready(int bucket, String topicName) {
        WaitingTopic topic = topic(topicName);
        topic.candidates.add(bucket);
        startDrain(topic);
    }

    /**
     * {@code count} ids of a topic arrived in a bucket here. A consumer first in line that lingers takes them in one
     * pop once those arrived since its last pop would fill its batch, or when its linger ends: not in a pop per move,
     * each a hand-off to a drain thread and a Redis script, while messages fall due one at a time.
     */
    void ready(int bucket, String topicName, int count) {
        WaitingTopic topic = topic(topicName);
        topic.candidates.add(bucket);
        Waiter first = topic.waiters.peek();
        if (first != null && first.wants > 0 && topic.readySincePop.addAndGet(count) < first.wants) {
            return;
        }
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
        for (WaitingTopic topic : topics.values()) {
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
        for (WaitingTopic topic : topics.values()) {
            for (Waiter waiter : topic.waiters) {
                expire(topic, waiter);
                answered++;
            }
        }
        return answered;
    }

    /** A topic's limits may let more through now (a reservation of it ended): its waiting consumers look again. */
    void retry(String topicName) {
        WaitingTopic topic = topics.get(topicName);
        if (topic != null) {
            startDrain(topic);
        }
    }

    int waiting(String topicName) {
        WaitingTopic topic = topics.get(topicName);
        return topic == null ? 0 : topic.waiters.size();
    }

    private WaitingTopic topic(String name) {
        return topics.computeIfAbsent(name, WaitingTopic::new);
    }

    private void startDrain(WaitingTopic topic) {
        if (!topic.waiters.isEmpty() && !topic.candidates.isEmpty() && topic.draining.compareAndSet(false, true)) {
            drainer.execute(() -> drainAndRelease(topic, null));
        }
    }

    /** Runs the drain this thread holds, then lets the next one start. */
    private void drainAndRelease(WaitingTopic topic, Waiter caller) {
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
    private void drain(WaitingTopic topic, Waiter caller) {
        Waiter waiter;
        while ((caller == null || !caller.isDone()) && (waiter = topic.waiters.peek()) != null) {
            if (!waiter.claimed.compareAndSet(false, true)) {
                topic.waiters.remove(waiter);
                continue;
            }
            topic.readySincePop.set(0);
            List<Message> got = pops.take(topic, waiter.count - waiter.got.size(), waiter.reserveMs);
            waiter.got.addAll(got);
            if (waiter.got.size() < waiter.count
                    && (waiter.got.isEmpty() || waiter.lingerMs > 0 && !waiter.lingerOver)) {
                if (!got.isEmpty() && !waiter.lingering) {
                    waiter.lingering = true;
                    Waiter lingering = waiter;
                    timer.schedule(() -> endLinger(topic, lingering), lingering.lingerMs, TimeUnit.MILLISECONDS);
                }
                waiter.wants = waiter.lingering ? waiter.count - waiter.got.size() : 0;
                waiter.claimed.set(false);
                return;
            }
            topic.waiters.remove(waiter);
            waiter.complete(List.copyOf(waiter.got));
        }
    }

    /**
     * A consumer's linger ended: a last pop for the rest of its batch, unless a drain is under way, then it answers.
     */
    private void endLinger(WaitingTopic topic, Waiter waiter) {
        waiter.lingerOver = true;
        try {
            drainer.execute(() -> {
                if (!topic.candidates.isEmpty() && topic.draining.compareAndSet(false, true)) {
                    drainAndRelease(topic, null);
                }
                expire(topic, waiter);
            });
        } catch (RejectedExecutionException e) {
            expire(topic, waiter);
        }
    }

    /** Answers a waiter with what it has: at its timeout, or at the end of its linger. */
    private void expire(WaitingTopic topic, Waiter waiter) {
        if (waiter.claimed.compareAndSet(false, true)) {
            topic.waiters.remove(waiter);
            waiter.complete(List.copyOf(waiter.got));
            if (waiter.wants > 0 && !closing) {
                // the moves it let wait may serve the consumers behind it
                startDrain(topic);
            }
        } else if (!waiter.isDone()) {
            timer.schedule(() -> expire(topic, waiter), 1, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A waiting consumer's answer; claimed by the one drain or expiry that answers it. What it got so far, and
     * whether its linger started, are read and written only by the thread that holds the claim.
     */
    static final class Waiter extends CompletableFuture<List<Message>> {
        final int count;
        final long lingerMs;
        final long reserveMs;
        final AtomicBoolean claimed = new AtomicBoolean();
        final List<Message> got = new ArrayList<>();
        boolean lingering;
        /** While it lingers, how many more messages fill its batch (else 0): what a move must bring to pop for it. */
        volatile int wants;
        /** Its linger ended: the next pop for it is its last. */
        volatile boolean lingerOver;

        Waiter(int count, long lingerMs, long reserveMs) {
            this.count = count;
            this.lingerMs = lingerMs;
            this.reserveMs = reserveMs;
        }
    }
}
