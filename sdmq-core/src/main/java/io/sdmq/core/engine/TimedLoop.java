package io.sdmq.core.engine;

import io.sdmq.common.Daemons;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;

/**
 * Runs a step on its own thread, then sleeps until the time the step names (at most {@code maxSleepMs}); its
 * {@link Alarm} cuts the sleep short. A failing step is logged and the loop goes on.
 */
final class TimedLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(TimedLoop.class);
    private static final long PAUSE_AFTER_FAILURE_MS = 1_000;
    private static final long NANOS_PER_MS = 1_000_000L;

    /** One pass of a loop; answers when (epoch ms) it wants to run next. */
    @FunctionalInterface
    interface Step {
        long runOnce(long now);
    }

    private final String name;
    private final Step step;
    private final Clock clock;
    private final long maxSleepMs;
    private final Alarm alarm;
    private volatile Thread thread;
    private volatile long lastRun;

    TimedLoop(String name, Step step, Clock clock, long maxSleepMs, Alarm alarm) {
        this.name = name;
        this.step = step;
        this.clock = clock;
        this.maxSleepMs = maxSleepMs;
        this.alarm = alarm;
    }

    TimedLoop(String name, Step step, Clock clock, long maxSleepMs) {
        this(name, step, clock, maxSleepMs, new Alarm());
    }

    void start() {
        thread = Daemons.thread(name, this);
        thread.start();
    }

    void stop() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True while the loop thread runs and has completed a pass within the last few sleep periods. */
    boolean healthy() {
        Thread t = thread;
        return t != null && t.isAlive() && clock.millis() - lastRun <= 3 * maxSleepMs + PAUSE_AFTER_FAILURE_MS;
    }

    /** One pass at the clock's time, for step-wise tests. */
    void runOnce() {
        step.runOnce(clock.millis());
    }

    @Override
    public void run() {
        alarm.wakes();
        while (!Thread.currentThread().isInterrupted()) {
            long sleepNanos;
            try {
                long next = step.runOnce(clock.millis());
                lastRun = clock.millis();
                sleepNanos = Math.min(next * NANOS_PER_MS - epochNanos(), maxSleepMs * NANOS_PER_MS);
            } catch (Throwable t) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                log.error("{} failed; will retry in {} ms", name, PAUSE_AFTER_FAILURE_MS, t);
                sleepNanos = PAUSE_AFTER_FAILURE_MS * NANOS_PER_MS;
            }
            if (sleepNanos > 0) {
                alarm.sleep(sleepNanos);
            }
        }
    }

    /** Now to the clock's full precision, so a sleep ends at the start of the due millisecond, not up to 1 ms late. */
    private long epochNanos() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
