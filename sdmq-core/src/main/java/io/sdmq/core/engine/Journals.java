package io.sdmq.core.engine;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;

import java.time.Duration;
import java.util.List;

/**
 * The MySQL writers, each a group-commit thread on a connection of its own: two for the writes a caller waits for
 * (new messages and terminal transitions, gathered into one transaction and one commit), one for background
 * transitions. A push or a finish thus waits for one commit and never behind background work; only the background
 * writer lingers to gather more per transaction, and in a burst it also waits while the others are busy (see
 * {@link JournalWriter}). The second durable writer takes new writes only while the first has a burst queued (batch
 * pushes, batch finishes), so that MySQL commits two of them at once; in the steady state one writer gathers
 * everything into fewer, larger commits, which cost MySQL less. A message's writes never race between the two: its
 * insert commits before any transition of it exists, each caller waits for its own commit, and Redis lets one
 * terminal transition of a message through. Its transitions are queued only after its insert committed; a
 * background transition that reaches MySQL after a terminal one is logged but cannot move the status out of it.
 */
final class Journals {
    /** Longest a background transition waits for the durable writers in a burst (see JournalWriter#yieldInBurst). */
    private static final Duration MAX_YIELD = Duration.ofSeconds(10);
    /**
     * Messages and transitions queued on the first durable writer from which new durable writes go to the second:
     * two batch calls' worth of a hundred, far above what single pushes and finishes queue.
     */
    static final int BURST_ROWS = 200;

    private final JournalWriter durable;
    private final JournalWriter burst;
    private final JournalWriter background;
    private final long joinMs;
    private List<Thread> threads = List.of();

    Journals(MessageLog messageLog, EngineSettings settings) {
        this.durable = durableWriter(messageLog, settings);
        this.burst = durableWriter(messageLog, settings);
        this.background = new JournalWriter(messageLog, settings.backgroundCapacity(), settings.journalBatch(),
                settings.writeTimeout(), settings.journalLinger(), () -> durable.busy() || burst.busy(), MAX_YIELD);
        this.joinMs = settings.writeTimeout().toMillis();
    }

    /** A writer for what callers wait for: it writes at once, and yields to nothing. */
    private static JournalWriter durableWriter(MessageLog messageLog, EngineSettings settings) {
        return new JournalWriter(messageLog, settings.journalCapacity(), settings.journalBatch(),
                settings.writeTimeout(), Duration.ZERO, null, Duration.ZERO);
    }

    /**
     * The writer for new messages and terminal transitions, whose callers wait for the commit: the first one, unless
     * it has a burst queued and the second has less.
     */
    JournalWriter durable() {
        int queued = durable.queuedRows();
        return queued < BURST_ROWS || burst.queuedRows() >= queued ? durable : burst;
    }

    /** Non-terminal transitions, in the order they happened. */
    JournalWriter background() {
        return background;
    }

    void start() {
        threads = List.of(Daemons.thread("sdmq-commit", durable), Daemons.thread("sdmq-commit-burst", burst),
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
        return durable.pending() + burst.pending() + background.pending();
    }
}
