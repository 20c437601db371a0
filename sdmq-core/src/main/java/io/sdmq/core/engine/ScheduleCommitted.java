package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.Schedule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * Puts committed messages into their buckets, one script per bucket: those committed as WAIT_PUT with a record of each
 * one's DELAY (a message Redis does not take stays WAIT_PUT in MySQL, and the reconciler schedules it later), or
 * those a bulk requeue committed as DELAY and due now.
 */
final class ScheduleCommitted {
    private static final Logger log = LoggerFactory.getLogger(ScheduleCommitted.class);

    private final Schedule schedule;
    private final BucketLocks locks;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final Clock clock;

    ScheduleCommitted(Schedule schedule, BucketLocks locks, StatusLog statusLog, Wakeups wakeups, Clock clock) {
        this.schedule = schedule;
        this.locks = locks;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.clock = clock;
    }

    /** Puts messages committed as WAIT_PUT into Redis and records their move to DELAY. */
    void schedule(List<Message> messages) {
        Buckets.positions(messages.stream().map(Message::id).toList(), schedule.buckets()).forEach((bucket, at) ->
                schedule(bucket, at.stream().map(messages::get).toList(), true));
    }

    /**
     * Puts messages already committed as DELAY, and due, into Redis; one Redis does not take stays DELAY in MySQL
     * until the reconciler finds it overdue by its grace and puts it back.
     */
    void scheduleDelayed(List<Message> messages) {
        Buckets.positions(messages.stream().map(Message::id).toList(), schedule.buckets()).forEach((bucket, at) ->
                schedule(bucket, at.stream().map(messages::get).toList(), false));
    }

    private void schedule(int bucket, List<Message> messages, boolean recordDelay) {
        try {
            locks.shared(bucket, () -> {
                long now = clock.millis();
                schedule.push(bucket, messages, now);
                for (int i = 0; recordDelay && i < messages.size(); i++) {
                    statusLog.record(Transition.of(messages.get(i).id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY,
                            now, schedule.bucketName(bucket)));
                }
                return null;
            });
        } catch (RuntimeException e) {
            log.warn("Redis did not take {} message(s) of bucket {}, the first {} ({}); they stay {} in MySQL until "
                    + "recovery schedules them", messages.size(), bucket, messages.get(0).id(), e.toString(),
                    recordDelay ? MessageStatus.WAIT_PUT : MessageStatus.DELAY);
            return;
        }
        wakeups.scheduled(bucket, messages.stream().mapToLong(Message::score).min().orElseThrow());
    }
}
