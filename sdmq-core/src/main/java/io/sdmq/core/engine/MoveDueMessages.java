package io.sdmq.core.engine;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.Schedule;
import io.sdmq.core.spi.Schedule.MoveResult;
import io.sdmq.core.spi.Schedule.Moved;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    @Override
    public long runOnce(long now) {
        return heads.visitDue(now, bucket -> moveBucket(bucket, now));
    }

    private void moveBucket(int bucket, long now) {
        heads.drain(bucket, batch, () -> {
            MoveResult result = locks.exclusive(bucket, () -> moveAndRecord(bucket, now));
            listener.readyAll(bucket, result.moved());
            return new BucketTimes.Look(result.moved().size(), result.nextScore());
        });
    }

    /**
     * Moves what is due at the tick's {@code now}, each move timed once the bucket is held: a push that recorded its
     * DELAY while this move waited for the lock recorded it after {@code now}, and a READY timed before it would lose
     * to the status log's guard (a row keeps its latest change), leaving the row DELAY while the message waits ready.
     */
    private MoveResult moveAndRecord(int bucket, long now) {
        MoveResult result = schedule.moveDue(bucket, now, batch);
        long at = Math.max(now, clock.millis());
        for (Moved moved : result.moved()) {
            statusLog.record(Transition.of(moved.id(), MessageStatus.DELAY, MessageStatus.READY, at,
                    schedule.bucketName(bucket)));
        }
        return result;
    }
}
