package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.Reservations;
import io.sdmq.core.spi.Reservations.RequeueResult;
import io.sdmq.core.spi.Reservations.Requeued;

/**
 * The reaper: reservations past their time-to-run go back to the delay set after their backoff, or out as
 * dead once their attempts are exhausted. Sleeps until the earliest deadline it knows of. Each requeued message
 * goes to {@link Wakeups#scheduled}, which wakes the scheduler if it is due before the scheduler would look.
 */
final class RequeueExpiredReservations implements TimedLoop.Step {
    private final Reservations reservations;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final int batch;
    private final BucketTimes deadlines;
    private final MessageEvents events;

    RequeueExpiredReservations(Reservations reservations, StatusLog statusLog, Wakeups wakeups, int batch,
                               BucketTimes deadlines, MessageEvents events) {
        this.reservations = reservations;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.batch = batch;
        this.deadlines = deadlines;
        this.events = events;
    }

    @Override
    public long runOnce(long now) {
        return deadlines.visitDue(now, bucket -> requeueBucket(bucket, now));
    }

    private void requeueBucket(int bucket, long now) {
        String bucketName = reservations.bucketName(bucket);
        deadlines.drain(bucket, batch, () -> {
            RequeueResult result = reservations.requeueExpired(bucket, now, batch);
            for (Requeued r : result.requeued()) {
                statusLog.record(Transition.of(r.id(), MessageStatus.RESERVED, MessageStatus.DELAY, now, bucketName)
                        .withAttempts(r.attempts()).withDueTime(r.dueTime()).withNote("ttr expired"));
                wakeups.scheduled(bucket, r.dueTime());
                events.redelivered(r.topic());
            }
            for (Message dead : result.dead()) {
                statusLog.record(Transition.of(dead.id(), MessageStatus.RESERVED, MessageStatus.DEAD, now, bucketName)
                        .withAttempts(dead.attempts()).withNote("ttr expired, attempts exhausted"));
                events.dead(dead.topic());
            }
            return new BucketTimes.Look(result.requeued().size() + result.dead().size(), result.nextDeadline());
        });
    }
}
