package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.Outage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Group commit: concurrent writers share transactions, a failed commit fails its callers, a lingering writer
 * gathers more per transaction without losing any on stop, and in a burst the background writer lets the durable
 * one go first, for no longer than its longest yield on the ticker.
 */
class StatusLogWriterTest {
    /** The writers' ticker: it moves only when a test steps it. */
    private final AtomicLong ticker = new AtomicLong();
    private final ExecutorService callers = Executors.newFixedThreadPool(50);
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final List<Integer> applied = new CopyOnWriteArrayList<>();
    private final List<Thread> extraThreads = new ArrayList<>();
    private static final Duration MAX_YIELD = Duration.ofMinutes(1);
    private Thread writerThread;

    @AfterEach
    void stop() {
        callers.shutdownNow();
        if (writerThread != null) {
            writerThread.interrupt();
        }
        extraThreads.forEach(Thread::interrupt);
    }

    @Test
    void concurrent_inserts_share_one_transaction() throws Exception {
        InMemoryMessageLog log = new InMemoryMessageLog();
        CountDownLatch firstCommitHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> batchSizes = new CopyOnWriteArrayList<>();
        MessageLog slowFirstCommit = recordingInserts(log, batchSizes, firstCommitHeld, release);
        StatusLogWriter writer = start(slowFirstCommit);

        Future<Long> first = callers.submit(() -> insert(writer, aMessage().build()));
        firstCommitHeld.await(5, TimeUnit.SECONDS);
        List<Future<Long>> others = new ArrayList<>();
        for (int i = 0; i < 49; i++) {
            Message m = aMessage().build();
            others.add(callers.submit(() -> insert(writer, m)));
        }
        await().until(() -> writer.pending() == 49);
        release.countDown();

        first.get(5, TimeUnit.SECONDS);
        for (Future<Long> other : others) {
            other.get(5, TimeUnit.SECONDS);
        }
        assertThat(batchSizes).containsExactly(1, 49);
    }

    @Test
    void a_failed_commit_fails_every_waiting_caller() {
        Outage outage = new Outage();
        StatusLogWriter writer = start(outage.wrap(MessageLog.class, new InMemoryMessageLog()));
        outage.begin();

        assertThatThrownBy(() -> insert(writer, aMessage().build())).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("MySQL is unavailable");
        outage.end();
        Message m = aMessage().build();
        assertThat(insert(writer, m)).isEqualTo(m.id());
    }

    @Test
    void new_messages_and_terminal_transitions_queued_together_share_one_commit() throws Exception {
        assertThat(pushAndDeleteQueuedTogether(false)).containsExactly("insert 1", "insertAndApply 1+1");
    }

    @Test
    void when_writing_together_fails_messages_and_transitions_are_written_apart() throws Exception {
        assertThat(pushAndDeleteQueuedTogether(true))
                .containsExactly("insert 1", "insertAndApply 1+1", "insert 1", "apply 1");
    }

    /**
     * Queues a push and the delete of an earlier message behind a first insert that the log holds, then releases it:
     * both callers get their answer and both writes are stored. Answers the writes the log was asked for.
     */
    private List<String> pushAndDeleteQueuedTogether(boolean failTogether) throws Exception {
        Message earlier = aMessage().build();
        messageLog.insert(List.of(earlier));
        List<String> calls = new CopyOnWriteArrayList<>();
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        StatusLogWriter writer = start(recordingCalls(messageLog, calls, firstHeld, release, failTogether));

        Future<Long> first = callers.submit(() -> insert(writer, aMessage().build()));
        firstHeld.await(5, TimeUnit.SECONDS);
        Message next = aMessage().build();
        Future<Long> pushed = callers.submit(() -> insert(writer, next));
        Future<?> deleting = callers.submit(() -> writer.commitAll(List.of(deleted(earlier))));
        await().until(() -> writer.pending() == 2);
        release.countDown();

        first.get(5, TimeUnit.SECONDS);
        assertThat(pushed.get(5, TimeUnit.SECONDS)).isEqualTo(next.id());
        deleting.get(5, TimeUnit.SECONDS);
        assertThat(messageLog.find(next.id())).isPresent();
        assertThat(messageLog.find(earlier.id()).orElseThrow().status()).isEqualTo(MessageStatus.DELETED);
        return calls;
    }

    @Test
    void a_lingering_writer_gathers_transitions_until_its_batch_is_full() {
        List<Message> messages = List.of(aMessage().build(), aMessage().build(), aMessage().build());
        lingeringWith(3, messages);

        await().until(() -> !applied.isEmpty());
        assertThat(applied).containsExactly(3);
        assertThat(messageLog.find(messages.get(2).id()).orElseThrow().status()).isEqualTo(MessageStatus.DELAY);
    }

    @Test
    void a_lingering_writer_that_is_stopped_writes_what_it_gathered() throws Exception {
        StatusLogWriter writer = lingeringWith(1_000, List.of(aMessage().build(), aMessage().build()));
        await().until(() -> writer.pending() == 0);

        writerThread.interrupt();
        writerThread.join(5_000);

        assertThat(writerThread.isAlive()).isFalse();
        assertThat(applied).containsExactly(2);
    }

    @Test
    void a_flush_returns_once_everything_queued_before_it_is_written_even_while_the_writer_lingers() {
        List<Message> messages = List.of(aMessage().build(), aMessage().build());
        StatusLogWriter writer = lingeringWith(1_000, messages);

        writer.flush();

        assertThat(applied).containsExactly(2);
        assertThat(messageLog.find(messages.get(1).id()).orElseThrow().status()).isEqualTo(MessageStatus.DELAY);
    }

    @Test
    void in_a_burst_background_transitions_wait_while_the_durable_writer_is_busy() throws Exception {
        Burst burst = new Burst(1_000, 30);

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(applied::isEmpty);
        burst.endDurableWrite();

        await().until(() -> appliedCount() == 30);
        assertThat(messageLog.find(burst.messages.get(29).id()).orElseThrow().status())
                .isEqualTo(MessageStatus.DELAY);
    }

    @Test
    void below_a_full_batch_background_transitions_are_written_while_the_durable_writer_is_busy() {
        Burst burst = new Burst(1_000, 5);

        await().until(() -> appliedCount() == 5);
        assertThat(burst.held).isNotDone();
    }

    @Test
    void background_transitions_wait_only_while_less_than_half_their_capacity_is_queued() throws Exception {
        Burst burst = new Burst(40, 30);

        await().until(() -> appliedCount() == 10);
        assertThat(burst.held).isNotDone();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> appliedCount() == 10);
        burst.endDurableWrite();

        await().until(() -> appliedCount() == 30);
    }

    @Test
    void a_background_transition_waits_for_the_durable_writer_no_longer_than_its_longest_yield() {
        Burst burst = new Burst(1_000, 30);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(applied::isEmpty);

        ticker.addAndGet(MAX_YIELD.toNanos());

        await().until(() -> appliedCount() == 30);
        assertThat(burst.held).isNotDone();
    }

    @Test
    void a_flush_of_the_background_writer_does_not_wait_for_the_durable_writer() {
        Burst burst = new Burst(1_000, 30);

        burst.background.flush();

        assertThat(appliedCount()).isEqualTo(30);
        assertThat(burst.held).isNotDone();
    }

    private int appliedCount() {
        return applied.stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * A durable writer busy with an insert the log holds until {@link #release}, and a background writer (batches of
     * 10, no linger, yielding to it for up to {@link #MAX_YIELD} on the ticker) started with the DELAY transitions of
     * {@code count} stored messages queued.
     */
    private final class Burst {
        final CountDownLatch release = new CountDownLatch(1);
        final List<Message> messages = new ArrayList<>();
        final Future<Long> held;
        final StatusLogWriter background;
        final StatusLogWriter durable;

        Burst(int backgroundCapacity, int count) {
            CountDownLatch holding = new CountDownLatch(1);
            durable = writer(recordingInserts(new InMemoryMessageLog(), new ArrayList<>(), holding,
                    release), 1_000, 10, Duration.ZERO, StatusLogWriter.Yielding.NEVER);
            background = writer(recordingApplies(messageLog, applied), backgroundCapacity, 10, Duration.ZERO,
                    new StatusLogWriter.Yielding(durable::busy, MAX_YIELD.toNanos()));
            writerThread = new Thread(durable, "durable-under-test");
            writerThread.start();
            held = callers.submit(() -> insert(durable, aMessage().build()));
            await().until(() -> holding.getCount() == 0);
            for (int i = 0; i < count; i++) {
                messages.add(aMessage().build());
            }
            messageLog.insert(messages);
            messages.forEach(m -> background.record(delayed(m)));
            Thread backgroundThread = new Thread(background, "background-under-test");
            extraThreads.add(backgroundThread);
            backgroundThread.start();
        }

        /**
         * Lets the held insert commit, then steps the ticker past the durable writer's quiet time until it is idle
         * (its writing ends a moment after the insert's caller is answered).
         */
        void endDurableWrite() throws Exception {
            release.countDown();
            held.get(5, TimeUnit.SECONDS);
            await().until(() -> {
                ticker.addAndGet(StatusLogWriter.QUIET_NANOS);
                return !durable.busy();
            });
        }
    }

    /** A writer that lingers a minute in batches of {@code batch}; each message stored and its DELAY recorded. */
    private StatusLogWriter lingeringWith(int batch, List<Message> messages) {
        messageLog.insert(messages);
        StatusLogWriter writer = start(recordingApplies(messageLog, applied), batch, Duration.ofMinutes(1));
        messages.forEach(m -> writer.record(delayed(m)));
        return writer;
    }

    private static Transition delayed(Message m) {
        return Transition.of(m.id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY, m.createTime() + 1, "b0");
    }

    private static Transition deleted(Message m) {
        return Transition.of(m.id(), MessageStatus.WAIT_PUT, MessageStatus.DELETED, m.createTime() + 2, "b0");
    }

    private StatusLogWriter start(MessageLog log) {
        return start(log, 1_000, Duration.ZERO);
    }

    private StatusLogWriter start(MessageLog log, int batch, Duration linger) {
        StatusLogWriter writer = writer(log, 1_000, batch, linger, StatusLogWriter.Yielding.NEVER);
        writerThread = new Thread(writer, "writer-under-test");
        writerThread.start();
        return writer;
    }

    private StatusLogWriter writer(MessageLog log, int capacity, int batch, Duration linger,
                                   StatusLogWriter.Yielding yielding) {
        return new StatusLogWriter(new BatchWriter(log), capacity, batch, Duration.ofSeconds(5), linger, yielding,
                ticker::get);
    }

    private static long insert(StatusLogWriter writer, Message message) {
        return writer.insertAll(List.of(message)).get(0);
    }

    private static MessageLog recordingApplies(MessageLog target, List<Integer> sizes) {
        return (MessageLog) Proxy.newProxyInstance(MessageLog.class.getClassLoader(), new Class<?>[] {MessageLog.class},
                (self, method, args) -> {
                    if (method.getName().equals("apply")) {
                        sizes.add(((List<?>) args[0]).size());
                    }
                    return method.invoke(target, args);
                });
    }

    /**
     * Names each write it passes on, with its sizes; holds the first until released, and fails writing together
     * when {@code failTogether}.
     */
    static MessageLog recordingCalls(MessageLog target, List<String> calls, CountDownLatch held,
                                     CountDownLatch release, boolean failTogether) {
        return (MessageLog) Proxy.newProxyInstance(MessageLog.class.getClassLoader(), new Class<?>[] {MessageLog.class},
                (self, method, args) -> {
                    switch (method.getName()) {
                        case "insert", "apply" -> calls.add(method.getName() + " " + ((List<?>) args[0]).size());
                        case "insertAndApply" -> {
                            calls.add("insertAndApply " + ((List<?>) args[0]).size() + "+"
                                    + ((List<?>) args[1]).size());
                            if (failTogether) {
                                throw new IllegalStateException("cannot write together (test)");
                            }
                        }
                        default -> {
                        }
                    }
                    if (held.getCount() > 0) {
                        held.countDown();
                        release.await(5, TimeUnit.SECONDS);
                    }
                    return method.invoke(target, args);
                });
    }

    private static MessageLog recordingInserts(MessageLog target, List<Integer> sizes, CountDownLatch held,
                                               CountDownLatch release) {
        return (MessageLog) Proxy.newProxyInstance(MessageLog.class.getClassLoader(), new Class<?>[] {MessageLog.class},
                (self, method, args) -> {
                    if (method.getName().equals("insert")) {
                        sizes.add(((List<?>) args[0]).size());
                        held.countDown();
                        release.await(5, TimeUnit.SECONDS);
                    }
                    return method.invoke(target, args);
                });
    }
}
