package io.sdmq.core.engine;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The engine's way to MySQL: two group-commit writers, each a thread on a connection of its own. One takes what
 * callers wait for (new messages and terminal transitions, gathered into one transaction and one commit), the other
 * non-terminal transitions in the background; in a burst the background one yields to the first (see
 * {@link StatusLogWriter}). A message's writes never race: its insert commits before any transition of it exists,
 * each caller waits for its own commit, and Redis lets one terminal transition of a message through; a background
 * transition that reaches MySQL after a terminal one is logged but cannot move the status out of it.
 */
final class StatusLog {
    /** Longest a background transition waits for the other writer in a burst. */
    private static final Duration MAX_YIELD = Duration.ofSeconds(10);

    private final StatusLogWriter durable;
    private final StatusLogWriter background;
    private final long joinMs;
    private List<Thread> threads = List.of();

    StatusLog(MessageLog messageLog, EngineSettings settings, LongSupplier ticker) {
        BatchWriter writer = new BatchWriter(messageLog);
        this.durable = new StatusLogWriter(writer, settings.writeCapacity(), settings.writeBatch(),
                settings.writeTimeout(), Duration.ZERO, StatusLogWriter.Yielding.NEVER, ticker);
        this.background = new StatusLogWriter(writer, settings.backgroundCapacity(), settings.writeBatch(),
                settings.writeTimeout(), settings.linger(),
                new StatusLogWriter.Yielding(durable::busy, MAX_YIELD.toNanos()), ticker);
        this.joinMs = settings.writeTimeout().toMillis();
    }

    /** Stores new messages as WAIT_PUT, committed when it returns; answers, in order, the ids holding their keys. */
    List<Long> insert(List<Message> messages) {
        return durable.insertAll(messages);
    }

    /** Applies a transition and waits for its commit (terminal transitions). */
    void commit(Transition transition) {
        durable.commitAll(List.of(transition));
    }

    /** Applies transitions and waits until all are committed; they share transactions. */
    void commitAll(List<Transition> transitions) {
        durable.commitAll(transitions);
    }

    /**
     * Applies a transition in the background, in the order they happened: the non-terminal ones, and the finishes of
     * push deliveries ({@link io.sdmq.core.Consumer#finishDelivered}).
     */
    void record(Transition transition) {
        background.record(transition);
    }

    /** Waits until every background transition queued before this call is written. */
    void flushBackground() {
        background.flush();
    }

    void start() {
        threads = List.of(Daemons.thread("sdmq-commit", durable), Daemons.thread("sdmq-status-log", background));
        threads.forEach(Thread::start);
    }

    /** Stops the writers after they wrote what is queued. */
    void stop() {
        for (Thread thread : threads) {
            thread.interrupt();
            try {
                thread.join(joinMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean alive() {
        return !threads.isEmpty() && threads.stream().allMatch(Thread::isAlive);
    }

    /** Writes queued and not yet committed. */
    int pending() {
        return durable.pending() + background.pending();
    }
}
