package io.sdmq.core.engine;

/**
 * Tells the scheduler that a message falls due, and the reaper that a reservation ends, and wakes the one concerned
 * when that is earlier than it would look.
 */
final class Wakeups {
    private final BucketTimes dueTimes;
    private final Alarm scheduler;
    private final BucketTimes deadlines;
    private final Alarm reaper;

    Wakeups(BucketTimes dueTimes, Alarm scheduler, BucketTimes deadlines, Alarm reaper) {
        this.dueTimes = dueTimes;
        this.scheduler = scheduler;
        this.deadlines = deadlines;
        this.reaper = reaper;
    }

    /** A message of {@code bucket} is due at {@code score}. */
    void scheduled(int bucket, long score) {
        if (dueTimes.lower(bucket, score)) {
            scheduler.ring();
        }
    }

    /** A reservation in {@code bucket} ends at {@code deadline}. */
    void reserved(int bucket, long deadline) {
        if (deadlines.lower(bucket, deadline)) {
            reaper.ring();
        }
    }
}
