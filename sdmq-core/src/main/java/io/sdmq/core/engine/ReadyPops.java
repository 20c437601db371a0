package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.Reservations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Pops a topic's ready messages for its waiting consumers: as many as the topic's settings let through now, from
 * its candidate buckets in turn, each pop recorded (READY → RESERVED, the reaper's wake-up, the delivery event).
 */
final class ReadyPops {
    private static final Logger log = LoggerFactory.getLogger(ReadyPops.class);

    private final Reservations reservations;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final BucketLocks locks;
    private final TopicGate gate;
    private final MessageEvents events;
    private final Clock clock;

    ReadyPops(Reservations reservations, StatusLog statusLog, Wakeups wakeups, BucketLocks locks, TopicGate gate,
              MessageEvents events, Clock clock) {
        this.reservations = reservations;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.locks = locks;
        this.gate = gate;
        this.events = events;
        this.clock = clock;
    }

    /**
     * What the topic's settings let a drain take now: all it wants, some, or nothing (paused, limited); each reserved
     * for {@code reserveMs} from now when that is longer than its time-to-run (0: never).
     */
    List<Message> take(WaitingTopic topic, int count, long reserveMs) {
        long reservedUntil = reserveMs == 0 ? 0 : clock.millis() + reserveMs;
        return gate.take(topic.name, count, clock, reservedUntil,
                (allowed, times) -> take(topic, allowed, times, reservedUntil));
    }

    /** Pops from the candidate buckets, dropping each that comes back short; a failed pop ends the round. */
    private List<Message> take(WaitingTopic topic, int count, LongSupplier times, long reservedUntil) {
        List<Message> got = new ArrayList<>(count);
        int buckets = reservations.buckets();
        for (int i = 0; i < buckets && got.size() < count && !topic.candidates.isEmpty(); i++) {
            int bucket = (topic.cursor + i) % buckets;
            if (!topic.candidates.remove(bucket)) {
                continue;
            }
            int wanted = count - got.size();
            List<Message> popped;
            try {
                popped = locks.shared(bucket, () -> popAndRecord(bucket, topic.name, wanted, times.getAsLong(),
                        reservedUntil));
            } catch (RuntimeException e) {
                log.warn("pop from bucket {} of topic {} failed ({}); the ready sweep will look again",
                        bucket, topic.name, e.toString());
                break;
            }
            if (popped.size() == wanted) {
                topic.candidates.add(bucket);
            }
            got.addAll(popped);
        }
        topic.cursor = (topic.cursor + 1) % buckets;
        return got;
    }

    private List<Message> popAndRecord(int bucket, String topic, int count, long now, long reservedUntil) {
        List<Message> popped = reservations.pop(bucket, topic, count, now, reservedUntil);
        for (Message m : popped) {
            statusLog.record(Transition.of(m.id(), MessageStatus.READY, MessageStatus.RESERVED, now,
                    reservations.bucketName(bucket)).withAttempts(m.attempts()));
            wakeups.reserved(bucket, Math.max(now + m.ttrMs(), reservedUntil));
            events.delivered(topic, m.dueTime(), now);
        }
        return popped;
    }
}
