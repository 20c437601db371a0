package io.sdmq.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.sdmq.common.Daemons;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The gauges {@code sdmq.topic.messages} (tags {@code topic} and {@code status}: {@code delayed}, {@code ready},
 * {@code reserved}) and {@code sdmq.topic.oldest.due.age} (how long ago the oldest message that is due and not
 * handed out was due), read from MySQL every {@code sdmq.metrics.refresh} by one daemon thread, so a scrape costs no
 * query. The two queries read every scheduled message's index entry (a million take MariaDB seconds), so a refresh
 * that took t waits at least {@link #PAUSE_FACTOR} × t before the next: a large backlog makes the gauges older, not
 * MySQL busier. Every instance reports the same values, those of the whole deployment. A topic beyond the tag bound
 * counts in {@code other} (the sum of their messages, the largest of their ages); a topic that has no scheduled
 * message any more reads 0.
 */
final class MessageGauges implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MessageGauges.class);
    private static final String[] STATUSES = {"delayed", "ready", "reserved"};
    private static final int AGE = 3;
    /** The gauges' queries take at most one part in this many plus one of MySQL's time. */
    static final int PAUSE_FACTOR = 20;

    private final TopicQueries queries;
    private final TopicTags tags;
    private final MeterRegistry registry;
    private final Clock clock;
    /** Per tag: delayed, ready, reserved, oldest due age in ms. */
    private final Map<String, AtomicLongArray> values = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-metrics"));
    private long refreshMs;

    MessageGauges(TopicQueries queries, TopicTags tags, MeterRegistry registry, Clock clock) {
        this.queries = queries;
        this.tags = tags;
        this.registry = registry;
        this.clock = clock;
    }

    void start(long refreshMs) {
        this.refreshMs = refreshMs;
        timer.schedule(this::refreshAndLog, refreshMs, TimeUnit.MILLISECONDS);
    }

    /** How long to wait after a refresh that took {@code tookMs}: the refresh period, or longer after a slow one. */
    static long pauseAfter(long refreshMs, long tookMs) {
        return Math.max(refreshMs, tookMs * PAUSE_FACTOR);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** Reads the counts and ages from MySQL and sets every gauge. */
    void refresh() {
        Map<String, long[]> fresh = new HashMap<>();
        for (TopicQueries.Count c : queries.scheduledCounts()) {
            int slot = switch (c.status()) {
                case "WAIT_PUT", "DELAY" -> 0;
                case "READY" -> 1;
                default -> 2;
            };
            fresh.computeIfAbsent(tags.of(c.topic()), t -> new long[4])[slot] += c.messages();
        }
        queries.oldestDueAges(clock.millis()).forEach((topic, age) -> {
            long[] v = fresh.computeIfAbsent(tags.of(topic), t -> new long[4]);
            v[AGE] = Math.max(v[AGE], age);
        });
        fresh.keySet().forEach(tag -> values.computeIfAbsent(tag, this::register));
        values.forEach((tag, gauges) -> {
            long[] v = fresh.getOrDefault(tag, new long[4]);
            for (int i = 0; i < v.length; i++) {
                gauges.set(i, v[i]);
            }
        });
    }

    private void refreshAndLog() {
        long started = System.nanoTime();
        try {
            refresh();
        } catch (Throwable t) {
            log.warn("could not read the message gauges from MySQL ({}); will retry at the next refresh",
                    t.toString());
        }
        if (!timer.isShutdown()) {
            timer.schedule(this::refreshAndLog, pauseAfter(refreshMs, (System.nanoTime() - started) / 1_000_000),
                    TimeUnit.MILLISECONDS);
        }
    }

    private AtomicLongArray register(String tag) {
        AtomicLongArray v = new AtomicLongArray(4);
        for (int i = 0; i < STATUSES.length; i++) {
            int slot = i;
            Gauge.builder("sdmq.topic.messages", v, a -> a.get(slot)).tags("topic", tag, "status", STATUSES[i])
                    .description("messages of the topic in the status, in MySQL").register(registry);
        }
        TimeGauge.builder("sdmq.topic.oldest.due.age", v, TimeUnit.MILLISECONDS, a -> a.get(AGE)).tag("topic", tag)
                .description("how long ago the oldest message due and not handed out was due").register(registry);
        return v;
    }
}
