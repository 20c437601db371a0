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
 * Puts messages committed as WAIT_PUT into their buckets, one script per bucket, and records each one's DELAY. A
 * message Redis does not take stays WAIT_PUT in MySQL, and the reconciler schedules it later.
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

    void schedule(List<Message> messages) {
        Buckets.positions(messages.stream().map(Message::id).toList(), schedule.buckets()).forEach((bucket, at) ->
                schedule(bucket, at.stream().map(messages::get).toList()));
    }

    private void schedule(int bucket, List<Message> messages) {
        try {
            locks.shared(bucket, () -> {
                long now = clock.millis();
                schedule.push(bucket, messages, now);
                for (Message message : messages) {
                    statusLog.record(Transition.of(message.id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY, now,
                            schedule.bucketName(bucket)));
                }
                return null;
            });
        } catch (RuntimeException e) {
            log.warn("Redis did not take {} message(s) of bucket {}, the first {} ({}); they stay WAIT_PUT in MySQL "
                    + "until recovery schedules them", messages.size(), bucket, messages.get(0).id(), e.toString());
            return;
        }
        wakeups.scheduled(bucket, messages.stream().mapToLong(Message::score).min().orElseThrow());
    }
}
