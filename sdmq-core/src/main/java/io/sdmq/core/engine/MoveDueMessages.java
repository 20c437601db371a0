package io.sdmq.core.engine;

import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.ScheduleStore;
import io.sdmq.core.spi.ScheduleStore.MoveResult;
import io.sdmq.core.spi.ScheduleStore.Moved;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The scheduler: moves due messages of each bucket to their topics' ready lists, in bounded batches, and
 * answers the earliest score it knows of, so the loop sleeps exactly until then. A push ahead of a bucket's
 * head lowers it through {@link #scheduled}. Every {@code refreshMs} all buckets are looked at, which covers
 * messages scheduled by other instances.
 */
final class MoveDueMessages implements TimedLoop.Step {

    /** Told, per bucket move, which topics got ready messages. */
    @FunctionalInterface
    interface ReadyListener {
        void ready(int bucket, Set<String> topics);
    }

    /** Told that a message of a bucket is due at a score: wakes the scheduler if that is before it would look. */
    @FunctionalInterface
    interface Scheduled {
        void scheduled(int bucket, long score);
    }

    private final ScheduleStore store;
    private final JournalWriter journal;
    private final ReadyListener listener;
    private final int batch;
    private final BucketTimes heads;
    private final BucketLocks locks;

    MoveDueMessages(ScheduleStore store, JournalWriter journal, ReadyListener listener, BucketLocks locks, int batch,
                    long refreshMs) {
        this.store = store;
        this.locks = locks;
        this.journal = journal;
        this.listener = listener;
        this.batch = batch;
        this.heads = new BucketTimes(store.buckets(), refreshMs);
    }

    /** A message of {@code bucket} is due at {@code score}; answers whether that is earlier than known. */
    boolean scheduled(int bucket, long score) {
        return heads.lower(bucket, score);
    }

    @Override
    public long runOnce(long now) {
        return heads.visitDue(now, bucket -> moveBucket(bucket, now));
    }

    private void moveBucket(int bucket, long now) {
        heads.drain(bucket, batch, () -> {
            MoveResult result = locks.exclusive(bucket, () -> moveAndRecord(bucket, now));
            Set<String> topics = new LinkedHashSet<>();
            result.moved().forEach(moved -> topics.add(moved.topic()));
            if (!topics.isEmpty()) {
                listener.ready(bucket, topics);
            }
            return new BucketTimes.Look(result.moved().size(), result.nextScore());
        });
    }

    private MoveResult moveAndRecord(int bucket, long now) {
        MoveResult result = store.moveDue(bucket, now, batch);
        for (Moved moved : result.moved()) {
            journal.record(Transition.of(moved.id(), MessageStatus.DELAY, MessageStatus.READY, now,
                    store.bucketName(bucket)));
        }
        return result;
    }
}
