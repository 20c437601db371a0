package io.sdmq.core.engine;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;

import java.time.Duration;
import java.util.List;

/**
 * The two MySQL writers, each a group-commit thread of its own: one for the writes a caller waits for (new messages
 * and terminal transitions, gathered into one transaction and one commit), one for background transitions. A push or
 * a finish thus waits for one commit and never behind background work; only the background writer lingers to gather
 * more per transaction.
 * A message's transitions are queued only after its insert committed; a background transition that reaches MySQL
 * after a terminal one is logged but cannot move the status out of it.
 */
final class Journals {
    private final JournalWriter durable;
    private final JournalWriter background;
    private final long joinMs;
    private List<Thread> threads = List.of();

    Journals(MessageLog messageLog, EngineSettings settings) {
        this.durable = writer(messageLog, settings, Duration.ZERO);
        this.background = writer(messageLog, settings, settings.journalLinger());
        this.joinMs = settings.writeTimeout().toMillis();
    }

    private static JournalWriter writer(MessageLog messageLog, EngineSettings settings, Duration linger) {
        return new JournalWriter(messageLog, settings.journalCapacity(), settings.journalBatch(),
                settings.writeTimeout(), linger);
    }

    /** New messages and terminal transitions, whose callers wait for the commit. */
    JournalWriter durable() {
        return durable;
    }

    /** Non-terminal transitions, in the order they happened. */
    JournalWriter background() {
        return background;
    }

    void start() {
        threads = List.of(Daemons.thread("sdmq-commit", durable), Daemons.thread("sdmq-journal", background));
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
        return durable.pending() + background.pending();
    }
}
