package io.sdmq.server.series;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRules;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * A topic's deliveries minute by minute across every instance, for {@code GET /topics/{topic}/series}: per minute the
 * deliveries, their rate and their lateness p50 and p99 (nearest rank), read off the {@link LatenessBuckets} of the
 * minute's hash, so within the buckets' error (4.5% plus 0.5 ms) of the true percentiles. The current minute is the
 * last point; it lacks up to a second of each instance's deliveries, not yet flushed.
 */
public final class TopicSeries {
    /** The most minutes one call may ask for: the hashes live a little longer. */
    static final int MAX_MINUTES = 60;

    private final SeriesStore store;
    private final Clock clock;

    TopicSeries(SeriesStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * @param step   the width of a point, in ms
     * @param points oldest first, one per minute
     */
    public record Series(String topic, long step, List<Point> points) {
    }

    /**
     * @param at          the start of the minute, epoch ms
     * @param perSecond   deliveries per second over the minute (over its elapsed part for the current minute)
     * @param latenessP50 ms, null without deliveries
     */
    public record Point(long at, long deliveries, double perSecond, Long latenessP50, Long latenessP99) {
    }

    /** The last {@code minutes} minutes of the topic, the current one included; a minute without deliveries reads 0. */
    public Series of(String topic, int minutes) {
        PushRules.checkTopic("topic", topic);
        if (minutes < 1 || minutes > MAX_MINUTES) {
            throw new InvalidRequestException("minutes", "must be in 1.." + MAX_MINUTES + ", not " + minutes);
        }
        long now = clock.millis();
        long current = DeliverySeries.minuteOf(now);
        long step = DeliverySeries.STEP_MS;
        List<Point> points = new ArrayList<>(minutes);
        for (long at = current - (minutes - 1) * step; at <= current; at += step) {
            long[] counts = store.read(topic, at);
            long deliveries = 0;
            for (long c : counts) {
                deliveries += c;
            }
            double seconds = at == current ? Math.max(1, (now - at) / 1_000.0) : step / 1_000.0;
            points.add(new Point(at, deliveries, deliveries / seconds, LatenessBuckets.percentile(counts, 0.50),
                    LatenessBuckets.percentile(counts, 0.99)));
        }
        return new Series(topic, step, points);
    }
}
