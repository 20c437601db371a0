package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.BucketSet;
import io.sdmq.core.spi.Schedule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Puts committed messages into their buckets, one script per bucket: those committed as WAIT_PUT with a record of each
 * one's DELAY (a message Redis does not take stays WAIT_PUT in MySQL, and the reconciler schedules it later), or
 * those a bulk requeue committed as READY, straight into their topics' ready lists.
 */
final class ScheduleCommitted {
    private static final Logger log = LoggerFactory.getLogger(ScheduleCommitted.class);

    private final Schedule schedule;
    private final BucketLocks locks;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final MoveDueMessages.ReadyListener listener;
    private final Clock clock;

    ScheduleCommitted(Schedule schedule, BucketLocks locks, StatusLog statusLog, Wakeups wakeups,
                      MoveDueMessages.ReadyListener listener, Clock clock) {
        this.schedule = schedule;
        this.locks = locks;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Puts messages committed as WAIT_PUT into Redis, their buckets together (one round trip), and records their move
     * to DELAY while it holds the buckets.
     */
    void schedule(List<Message> messages) {
        Map<Integer, List<Integer>> positions = Buckets.positions(messages.stream().map(Message::id).toList(),
                schedule.buckets());
        int[] buckets = positions.keySet().stream().mapToInt(Integer::intValue).toArray();
        List<List<Message>> each = positions.values().stream().map(at -> at.stream().map(messages::get).toList())
                .toList();
        boolean[] taken = new boolean[buckets.length];
        locks.sharedAll(buckets, () -> {
            long now = clock.millis();
            List<Supplier<Boolean>> pushed;
            try {
                pushed = schedule.pushEach(buckets, each, now);
            } catch (RuntimeException e) {
                pushed = BucketSet.oneByOne(buckets.length, i -> {
                    throw e;
                });
            }
            for (int i = 0; i < buckets.length; i++) {
                List<Message> bucketMessages = each.get(i);
                try {
                    pushed.get(i).get();
                } catch (RuntimeException e) {
                    log.warn("Redis did not take {} message(s) of bucket {}, the first {} ({}); they stay WAIT_PUT in "
                            + "MySQL until recovery schedules them", bucketMessages.size(), buckets[i],
                            bucketMessages.get(0).id(), e.toString());
                    continue;
                }
                taken[i] = true;
                for (Message message : bucketMessages) {
                    statusLog.record(Transition.of(message.id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY, now,
                            schedule.bucketName(buckets[i])));
                }
            }
        });
        for (int i = 0; i < buckets.length; i++) {
            if (taken[i]) {
                wakeups.scheduled(buckets[i], each.get(i).stream().mapToLong(Message::score).min().orElseThrow());
            }
        }
    }

    /**
     * Puts messages already committed as READY, due now, into their topics' ready lists and tells the waiting
     * consumers; one Redis does not take stays READY in MySQL until the reconciler finds it overdue by its grace and
     * puts it back.
     */
    void scheduleReady(List<Message> messages) {
        Buckets.positions(messages.stream().map(Message::id).toList(), schedule.buckets()).forEach((bucket, at) -> {
            List<Message> ready = at.stream().map(messages::get).toList();
            List<Schedule.Moved> added;
            try {
                // no transition is recorded here, so nothing to keep in order with the scheduler's: no bucket lock
                added = schedule.pushReady(bucket, ready);
            } catch (RuntimeException e) {
                log.warn("Redis did not take {} ready message(s) of bucket {}, the first {} ({}); they stay READY in "
                        + "MySQL until recovery schedules them", ready.size(), bucket, ready.get(0).id(),
                        e.toString());
                return;
            }
            listener.readyAll(bucket, added);
        });
    }
}
