package io.sdmq.core.engine;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;

import java.time.Duration;
import java.util.List;

/**
 * The two MySQL writers, each a group-commit thread of its own: one for the writes a caller waits for (new messages
 * and terminal transitions, gathered into one transaction and one commit), one for background transitions. A push or
 * a finish thus waits for one commit and never behind background work; only the background writer lingers to gather
 * more per transaction, and in a burst it also waits while the other one is busy (see {@link JournalWriter}).
 * A message's transitions are queued only after its insert committed; a background transition that reaches MySQL
 * after a terminal one is logged but cannot move the status out of it.
 */
final class Journals {
    /** Longest a background transition waits for the durable writer in a burst (see JournalWriter#yieldInBurst). */
    private static final Duration MAX_YIELD = Duration.ofSeconds(10);

    private final JournalWriter durable;
    private final JournalWriter background;
    private final long joinMs;
    private List<Thread> threads = List.of();

    Journals(MessageLog messageLog, EngineSettings settings) {
        this.durable = new JournalWriter(messageLog, settings.journalCapacity(), settings.journalBatch(),
                settings.writeTimeout(), Duration.ZERO, null, Duration.ZERO);
        this.background = new JournalWriter(messageLog, settings.backgroundCapacity(), settings.journalBatch(),
                settings.writeTimeout(), settings.journalLinger(), durable, MAX_YIELD);
        this.joinMs = settings.writeTimeout().toMillis();
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
