package io.sdmq.core.spi;

import io.sdmq.common.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The ready and reserved messages of the fast schedule: what consumers take, finish and give back, and what the
 * reaper requeues when a time-to-run ends. Every change is one atomic step on one bucket; times are passed in.
 */
public interface Reservations extends BucketSet {

    /**
     * Takes up to {@code count} ready messages of a topic and reserves each until {@code now + ttr}, or until
     * {@code reservedUntil} when that is later (0: never); ids whose message was deleted are skipped. The messages
     * returned carry their attempts after this delivery.
     */
    List<Message> pop(int bucket, String topic, int count, long now, long reservedUntil);

    /**
     * {@link #pop} from several buckets in turn, each taking up to what the buckets before it left of {@code count},
     * in one round trip where the store can. Per bucket reached, in order, a supplier of its messages that throws
     * instead when that bucket's pop failed (the next bucket then goes on as if it had given nothing); the buckets
     * after {@code count} is reached are not in the answer.
     */
    default List<Supplier<List<Message>>> popEach(int[] buckets, String topic, int count, long now,
                                                  long reservedUntil) {
        List<Supplier<List<Message>>> popped = new ArrayList<>();
        int left = count;
        for (int i = 0; i < buckets.length && left > 0; i++) {
            try {
                List<Message> got = pop(buckets[i], topic, left, now, reservedUntil);
                popped.add(() -> got);
                left -= got.size();
            } catch (RuntimeException e) {
                popped.add(BucketSet.failed(e));
            }
        }
        return popped;
    }

    /**
     * Ends reservations of one bucket in one step and forgets those messages. Answers, per id in order, the topic of
     * the message when it was reserved, else empty; one that was not (unknown, pending, or done) is left alone.
     */
    List<Optional<String>> finish(int bucket, List<Long> ids, long now);

    /**
     * {@link #finish} in several buckets, {@code ids} giving each one's, in one round trip where the store can. Per
     * bucket in order, a supplier of its answer that throws instead when that bucket's finish failed.
     */
    default List<Supplier<List<Optional<String>>>> finishEach(int[] buckets, List<List<Long>> ids, long now) {
        return BucketSet.oneByOne(buckets.length, i -> finish(buckets[i], ids.get(i), now));
    }

    /**
     * A consumer gives a reserved message back: due again at {@code now + delayMs}, or after its retry policy's
     * backoff when {@code delayMs} is null, or out as dead when its attempts are exhausted or {@code dead} is true
     * (the consumer gave up on it). Empty when not reserved.
     */
    Optional<Nacked> nack(int bucket, long id, long now, Long delayMs, boolean dead);

    /** Extends a reservation to {@code now + ttr}; the new deadline, or empty when the message is not reserved. */
    OptionalLong touch(int bucket, long id, long now);

    /**
     * Reservations whose deadline is &lt;= now: back to the delay set after their retry policy's backoff, or out as
     * dead when their attempts are exhausted.
     */
    RequeueResult requeueExpired(int bucket, long now, int limit);

    /** How many ids wait in a topic's ready list of a bucket (deleted ones included until popped). */
    long readyCount(int bucket, String topic);

    /** The topics that have a ready list in a bucket. */
    Set<String> readyTopics(int bucket);

    /** A nacked message: dead, or due again at its message's due time. */
    record Nacked(boolean dead, Message message) {
    }

    /**
     * @param requeued     back in the delay set
     * @param dead         attempts exhausted, removed from the schedule
     * @param nextDeadline the earliest reservation deadline left in the bucket, or {@link #NONE}
     */
    record RequeueResult(List<Requeued> requeued, List<Message> dead, long nextDeadline) {
    }

    /** A message of {@code topic} back in the delay set, due again at {@code dueTime}. */
    record Requeued(long id, String topic, int attempts, long dueTime) {
    }
}
