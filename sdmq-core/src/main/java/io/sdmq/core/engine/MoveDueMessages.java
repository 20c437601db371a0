package io.sdmq.core.engine;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.Schedule;
import io.sdmq.core.spi.Schedule.MoveResult;
import io.sdmq.core.spi.Schedule.Moved;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The scheduler: moves due messages of each bucket to their topics' ready lists, in bounded batches, and
 * answers the earliest score it knows of, so the loop sleeps exactly until then. A push ahead of a bucket's
 * head lowers it through {@link Wakeups#scheduled}. Every refresh of its {@link BucketTimes} all buckets are looked
 * at, which covers messages scheduled by other instances.
 */
final class MoveDueMessages implements TimedLoop.Step {

    /** Told, per bucket move, how many ready messages each topic got. */
    @FunctionalInterface
    interface ReadyListener {
        void ready(int bucket, Map<String, Integer> counts);

        /** Tells how many of the messages that went to the bucket's ready lists each topic got, if any went. */
        default void readyAll(int bucket, List<Moved> moved) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            moved.forEach(m -> counts.merge(m.topic(), 1, Integer::sum));
            if (!counts.isEmpty()) {
                ready(bucket, counts);
            }
        }
    }

    private final Schedule schedule;
    private final StatusLog statusLog;
    private final ReadyListener listener;
    private final BucketLocks locks;
    private final int batch;
    private final BucketTimes heads;
    private final Clock clock;

    MoveDueMessages(Schedule schedule, StatusLog statusLog, ReadyListener listener, BucketLocks locks, int batch,
                    BucketTimes heads, Clock clock) {
        this.schedule = schedule;
        this.statusLog = statusLog;
        this.listener = listener;
        this.locks = locks;
        this.batch = batch;
        this.heads = heads;
        this.clock = clock;
    }

    /**
     * Moves every due bucket's messages together (one Redis round trip for all of them), holding their locks while
     * the moves' READYs are queued. A bucket whose move failed is due again at once and holds up no other; the first
     * failure is thrown once the others' moves are recorded, so the loop pauses before it retries.
     */
    @Override
    public long runOnce(long now) {
        List<RuntimeException> failures = new ArrayList<>(0);
        long next = heads.visitDueTogether(now, batch, buckets -> moveAll(buckets, now, failures));
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return next;
    }

    private BucketTimes.Look[] moveAll(int[] buckets, long now, List<RuntimeException> failures) {
        MoveResult[] results = new MoveResult[buckets.length];
        locks.exclusiveAll(buckets, () -> {
            List<Supplier<MoveResult>> moves = schedule.moveDueEach(buckets, now, batch);
            long at = Math.max(now, clock.millis());
            for (int i = 0; i < buckets.length; i++) {
                try {
                    results[i] = moves.get(i).get();
                } catch (RuntimeException e) {
                    failures.add(e);
                    continue;
                }
                record(buckets[i], results[i], at);
            }
        });
        BucketTimes.Look[] looks = new BucketTimes.Look[buckets.length];
        for (int i = 0; i < buckets.length; i++) {
            MoveResult result = results[i];
            if (result == null) {
                looks[i] = new BucketTimes.Look(0, now);
            } else {
                listener.readyAll(buckets[i], result.moved());
                looks[i] = new BucketTimes.Look(result.moved().size(), result.nextScore());
            }
        }
        return looks;
    }

    /**
     * Each move is timed once its bucket is held: a push that recorded its DELAY while this move waited for the lock
     * recorded it after {@code now}, and a READY timed before it would lose to the status log's guard (a row keeps its
     * latest change), leaving the row DELAY while the message waits ready.
     */
    private void record(int bucket, MoveResult result, long at) {
        for (Moved moved : result.moved()) {
            statusLog.record(Transition.of(moved.id(), MessageStatus.DELAY, MessageStatus.READY, at,
                    schedule.bucketName(bucket)));
        }
    }
}
