package io.sdmq.core.engine;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;

import java.time.Duration;
import java.util.List;

/**
 * The three MySQL writers, each a group-commit thread of its own: new messages, terminal transitions a caller waits
 * for, and background transitions. A push or a finish thus waits for one commit and never behind background work;
 * only the background writer lingers to gather more per transaction.
 * A message's transitions are queued only after its insert committed; a background transition that reaches MySQL
 * after a terminal one is logged but cannot move the status out of it.
 */
final class Journals {
    private final JournalWriter inserts;
    private final JournalWriter terminals;
    private final JournalWriter background;
    private final long joinMs;
    private List<Thread> threads = List.of();

    Journals(MessageLog messageLog, EngineSettings settings) {
        this.inserts = writer(messageLog, settings, Duration.ZERO);
        this.terminals = writer(messageLog, settings, Duration.ZERO);
        this.background = writer(messageLog, settings, settings.journalLinger());
        this.joinMs = settings.writeTimeout().toMillis();
    }

    private static JournalWriter writer(MessageLog messageLog, EngineSettings settings, Duration linger) {
        return new JournalWriter(messageLog, settings.journalCapacity(), settings.journalBatch(),
                settings.writeTimeout(), linger);
    }

    JournalWriter inserts() {
        return inserts;
    }

    JournalWriter terminals() {
        return terminals;
    }

    /** Non-terminal transitions, in the order they happened. */
    JournalWriter background() {
        return background;
    }

    void start() {
        threads = List.of(Daemons.thread("sdmq-insert", inserts), Daemons.thread("sdmq-terminal", terminals),
                Daemons.thread("sdmq-journal", background));
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

    int pending() {
        return inserts.pending() + terminals.pending() + background.pending();
    }
}
