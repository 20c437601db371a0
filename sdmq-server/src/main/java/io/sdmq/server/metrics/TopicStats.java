package io.sdmq.server.metrics;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;
import io.sdmq.core.spi.Reservations;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * One topic's state across every instance, for {@code GET /topics/{topic}/stats}: its ready messages live from Redis
 * (the length of its ready list in every bucket, deleted ids included until popped), the other statuses from MySQL
 * (the non-terminal ones as the status log writers have written them, at most a linger behind Redis in the steady
 * state), the oldest due age from MySQL, and the deliveries of the last {@link #WINDOW} from the status log.
 */
public final class TopicStats {
    /** The window of the deliveries and lateness figures. */
    static final Duration WINDOW = Duration.ofMinutes(5);

    private final TopicQueries queries;
    private final Reservations reservations;
    private final Clock clock;

    TopicStats(TopicQueries queries, Reservations reservations, Clock clock) {
        this.queries = queries;
        this.reservations = reservations;
        this.clock = clock;
    }

    /** Messages per status; lateness in ms, null when no delivery in the window could be measured. */
    public record Stats(String topic, long delayed, long ready, long reserved, long finished, long deleted, long dead,
                        long expired, long oldestDueAge, long window, long deliveries, double deliveriesPerSecond,
                        Long latenessP50, Long latenessP99) {
    }

    /** What is waiting to be handed out: ready messages (from Redis) and how long ago the oldest was due, in ms. */
    public record Backlog(long ready, long oldestDueAge) {
    }

    /** The topic's stats now; a topic without messages reads zeros. */
    public Stats of(String topic) {
        long now = clock.millis();
        Backlog backlog = backlog(topic);
        Map<String, Long> counts = queries.counts(topic);
        TopicQueries.Deliveries deliveries = queries.deliveries(topic, now - WINDOW.toMillis(), now + 1);
        return new Stats(topic, count(counts, MessageStatus.WAIT_PUT) + count(counts, MessageStatus.DELAY),
                backlog.ready(), count(counts, MessageStatus.RESERVED), count(counts, MessageStatus.FINISHED),
                count(counts, MessageStatus.DELETED), count(counts, MessageStatus.DEAD),
                count(counts, MessageStatus.EXPIRED), backlog.oldestDueAge(), WINDOW.toMillis(),
                deliveries.count(), deliveries.count() / (double) WINDOW.toSeconds(), deliveries.latenessP50(),
                deliveries.latenessP99());
    }

    /** The topic's backlog now, without the counts and deliveries of {@link #of}: one MySQL read. */
    public Backlog backlog(String topic) {
        PushRules.checkTopic("topic", topic);
        long ready = 0;
        for (int bucket = 0; bucket < reservations.buckets(); bucket++) {
            ready += reservations.readyCount(bucket, topic);
        }
        return new Backlog(ready, queries.oldestDueAge(topic, clock.millis()));
    }

    private static long count(Map<String, Long> counts, MessageStatus status) {
        return counts.getOrDefault(status.name(), 0L);
    }
}
