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
import java.util.function.Supplier;
import java.util.stream.IntStream;

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

    /**
     * Pops from the candidate buckets in turn from the topic's cursor, in one call to the store, holding their shared
     * locks; keeps as candidates those that came back full or were not reached, drops those that came back short or
     * failed, and all of them when the call failed (the ready sweep looks at them again).
     */
    private List<Message> take(WaitingTopic topic, int count, LongSupplier times, long reservedUntil) {
        int buckets = reservations.buckets();
        int[] order = IntStream.range(0, buckets).map(i -> (topic.cursor + i) % buckets)
                .filter(topic.candidates::remove).toArray();
        topic.cursor = (topic.cursor + 1) % buckets;
        if (order.length == 0) {
            return List.of();
        }
        List<Message> got = new ArrayList<>(count);
        int[] reached = {0};
        try {
            locks.sharedAll(IntStream.of(order).sorted().toArray(), () -> {
                long now = times.getAsLong();
                for (Supplier<List<Message>> popped : reservations.popEach(order, topic.name, count, now,
                        reservedUntil)) {
                    int bucket = order[reached[0]++];
                    int wanted = count - got.size();
                    List<Message> messages = popped(popped, bucket, topic.name);
                    record(messages, bucket, topic.name, now, reservedUntil);
                    got.addAll(messages);
                    if (messages.size() == wanted) {
                        topic.candidates.add(bucket);
                    }
                }
            });
        } catch (RuntimeException e) {
            log.warn("pop from the buckets of topic {} failed ({}); the ready sweep will look again", topic.name,
                    e.toString());
            return got;
        }
        for (int i = reached[0]; i < order.length; i++) {
            topic.candidates.add(order[i]);
        }
        return got;
    }

    /** A bucket's pop, or nothing when it failed. */
    private static List<Message> popped(Supplier<List<Message>> popped, int bucket, String topic) {
        try {
            return popped.get();
        } catch (RuntimeException e) {
            log.warn("pop from bucket {} of topic {} failed ({}); the ready sweep will look again", bucket, topic,
                    e.toString());
            return List.of();
        }
    }

    private void record(List<Message> popped, int bucket, String topic, long now, long reservedUntil) {
        for (Message m : popped) {
            statusLog.record(Transition.of(m.id(), MessageStatus.READY, MessageStatus.RESERVED, now,
                    reservations.bucketName(bucket)).withAttempts(m.attempts()));
            wakeups.reserved(bucket, Math.max(now + m.ttrMs(), reservedUntil));
            events.delivered(topic, m.dueTime(), now);
        }
    }
}
