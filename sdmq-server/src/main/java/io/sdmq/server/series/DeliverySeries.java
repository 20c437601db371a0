package io.sdmq.server.series;

import io.sdmq.common.Daemons;
import io.sdmq.core.spi.MessageEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This instance's deliveries, counted per topic and minute into lateness buckets as they happen, and added to Redis
 * ({@link SeriesStore}) every second by one daemon thread, and once more when it stops. Memory holds at most the
 * topics delivered in the last two minutes, {@link LatenessBuckets#COUNT} counters each, whatever the rate. A flush
 * that fails is dropped with a warning: the chart misses that second of this instance's deliveries.
 */
public final class DeliverySeries implements MessageEvents, SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(DeliverySeries.class);
    /** A point of the series: one minute. */
    static final long STEP_MS = 60_000;
    private static final long FLUSH_MS = 1_000;

    private record Minute(String topic, long start) {
    }

    private final SeriesStore store;
    private final Clock clock;
    private final ConcurrentHashMap<Minute, AtomicLongArray> counts = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;
    private volatile boolean running;

    DeliverySeries(SeriesStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-series"));
        timer.scheduleWithFixedDelay(this::flushAndLog, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
        running = true;
    }

    static long minuteOf(long epochMs) {
        return epochMs - Math.floorMod(epochMs, STEP_MS);
    }

    @Override
    public void delivered(String topic, long dueTime, long now) {
        counts.computeIfAbsent(new Minute(topic, minuteOf(now)), m -> new AtomicLongArray(LatenessBuckets.COUNT))
                .incrementAndGet(LatenessBuckets.index(now - dueTime));
    }

    /**
     * Adds what was counted since the last flush to Redis. A minute that ended more than a minute ago is forgotten
     * after it is added: no delivery can count in it any more.
     */
    void flush() {
        long current = minuteOf(clock.millis());
        counts.forEach((minute, buckets) -> {
            if (minute.start() < current - STEP_MS) {
                counts.remove(minute);
            }
            long[] taken = new long[buckets.length()];
            boolean any = false;
            for (int i = 0; i < taken.length; i++) {
                taken[i] = buckets.getAndSet(i, 0);
                any |= taken[i] != 0;
            }
            if (any) {
                store.add(minute.topic(), minute.start(), taken);
            }
        });
    }

    private void flushAndLog() {
        try {
            flush();
        } catch (Throwable t) {
            log.warn("could not add the latest deliveries to Redis ({}); the series misses them, the next flush is in "
                    + "{} ms", t.toString(), FLUSH_MS);
        }
    }

    /** Stops the flushes and adds what is left. */
    @Override
    public void stop() {
        running = false;
        timer.shutdownNow();
        try {
            timer.awaitTermination(FLUSH_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushAndLog();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Stops after the engine ({@code Integer.MAX_VALUE - 4096}), so it adds the last deliveries, and before the Redis
     * connection factory (phase 0).
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 8192;
    }
}
