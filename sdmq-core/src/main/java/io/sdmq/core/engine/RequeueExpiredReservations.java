package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.ScheduleStore;
import io.sdmq.core.spi.ScheduleStore.RequeueResult;
import io.sdmq.core.spi.ScheduleStore.Requeued;

/**
 * The reaper: reservations past their time-to-run go back to the delay set after their backoff, or out as
 * dead once their attempts are exhausted. Sleeps until the earliest deadline it knows of. Each requeued message
 * goes to {@code scheduled}, which wakes the scheduler if it is due before the scheduler would look.
 */
final class RequeueExpiredReservations implements TimedLoop.Step {
    private final ScheduleStore store;
    private final JournalWriter journal;
    private final MoveDueMessages.Scheduled scheduled;
    private final int batch;
    private final BucketTimes deadlines;

    RequeueExpiredReservations(ScheduleStore store, JournalWriter journal, MoveDueMessages.Scheduled scheduled,
                               int batch, long refreshMs) {
        this.store = store;
        this.journal = journal;
        this.scheduled = scheduled;
        this.batch = batch;
        this.deadlines = new BucketTimes(store.buckets(), refreshMs);
    }

    /** A reservation in {@code bucket} ends at {@code deadline}; answers whether that is earlier than known. */
    boolean reserved(int bucket, long deadline) {
        return deadlines.lower(bucket, deadline);
    }

    @Override
    public long runOnce(long now) {
        return deadlines.visitDue(now, bucket -> requeueBucket(bucket, now));
    }

    private void requeueBucket(int bucket, long now) {
        String bucketName = store.bucketName(bucket);
        deadlines.drain(bucket, batch, () -> {
            RequeueResult result = store.requeueExpired(bucket, now, batch);
            for (Requeued r : result.requeued()) {
                journal.record(Transition.of(r.id(), MessageStatus.RESERVED, MessageStatus.DELAY, now, bucketName)
                        .withAttempts(r.attempts()).withDueTime(r.dueTime()).withNote("ttr expired"));
                scheduled.scheduled(bucket, r.dueTime());
            }
            for (Message dead : result.dead()) {
                journal.record(Transition.of(dead.id(), MessageStatus.RESERVED, MessageStatus.DEAD, now, bucketName)
                        .withAttempts(dead.attempts()).withNote("ttr expired, attempts exhausted"));
            }
            return new BucketTimes.Look(result.requeued().size() + result.dead().size(), result.nextDeadline());
        });
    }
}
