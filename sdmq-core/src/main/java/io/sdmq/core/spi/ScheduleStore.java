package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The fast schedule: one set of keys per bucket, every change one atomic step on one bucket.
 * Times are passed in ({@code now}); races are answered with values, never exceptions.
 */
public interface ScheduleStore {

    /** A score or deadline meaning "nothing scheduled". */
    long NONE = Long.MAX_VALUE;

    int buckets();

    /** The name of a bucket as the journal records it (its delay key). */
    String bucketName(int bucket);

    /**
     * Adds messages to one bucket in one step, each unless it is there already (a replay changes nothing). One with a
     * score at or after {@code coldFrom} is cold: the bucket keeps only its id and score, and its body stays in MySQL
     * until {@link #warm} brings it in.
     *
     * @return true when one of them is now the earliest of the bucket, so the timer must wake earlier
     */
    boolean push(int bucket, List<Message> messages, long coldFrom);

    /** {@link #push(int, List, long)} with no message cold. */
    default boolean push(int bucket, List<Message> messages) {
        return push(bucket, messages, NONE);
    }

    /** {@link #push(int, List)} of one message. */
    default boolean push(int bucket, Message message) {
        return push(bucket, List.of(message));
    }

    /**
     * Up to {@code limit} ids of the bucket's cold messages with a score &lt;= {@code until}, earliest first, and the
     * earliest cold score left after them (or {@link #NONE}).
     */
    ColdIds coldUntil(int bucket, long until, int limit);

    /**
     * Brings cold messages into the schedule with their meta from MySQL: each one still cold is scheduled at its
     * score, one that is not (deleted, or warmed already) is left alone. Answers, per message in order, whether it
     * was cold.
     */
    List<Boolean> warm(int bucket, List<Message> messages);

    /** Moves up to {@code limit} messages with score &lt;= now to their topics' ready lists. */
    MoveResult moveDue(int bucket, long now, int limit);

    /**
     * Takes up to {@code count} ready messages of a topic and reserves each until {@code now + ttr};
     * ids whose message was deleted are skipped. The messages returned carry their attempts after this delivery.
     */
    List<Message> pop(int bucket, String topic, int count, long now);

    /** How long the id of a finished, deleted or dead message is remembered, so a racing restore skips it. */
    long GONE_MS = 5 * 60_000L;

    /**
     * Ends reservations of one bucket in one step and forgets those messages. Answers, per id in order, whether it
     * was reserved; one that was not (unknown, pending, or done) is left alone.
     */
    List<Boolean> finish(int bucket, List<Long> ids, long now);

    /** {@link #finish(int, List, long)} of one id. */
    default boolean finish(int bucket, long id, long now) {
        return finish(bucket, List.of(id), now).get(0);
    }

    /** Forgets a message wherever it is in the bucket; the status it had, or empty when the bucket does not hold it. */
    Optional<MessageStatus> delete(int bucket, long id, long now);

    /** A message from MySQL and the score it goes back into its bucket at. */
    record Restoring(Message message, long score) {
    }

    /**
     * Puts messages from MySQL back into one bucket's delay set in one step, each unless the bucket holds it or it
     * finished, was deleted or died less than {@link #GONE_MS} ago; one with a score at or after {@code coldFrom}
     * goes back cold (see {@link #push(int, List, long)}). Answers each message's outcome, in order.
     */
    List<Restored> restore(int bucket, List<Restoring> messages, long coldFrom);

    /** {@link #restore(int, List, long)} with no message cold. */
    default List<Restored> restore(int bucket, List<Restoring> messages) {
        return restore(bucket, messages, NONE);
    }

    /** {@link #restore(int, List)} of one message. */
    default Restored restore(int bucket, Message message, long score) {
        return restore(bucket, List.of(new Restoring(message, score))).get(0);
    }

    /**
     * A consumer gives a reserved message back: due again at {@code now + delayMs}, or after its retry policy's
     * backoff when {@code delayMs} is null, or out as dead when its attempts are exhausted. Empty when not reserved.
     */
    Optional<Nacked> nack(int bucket, long id, long now, Long delayMs);

    /** Extends a reservation to {@code now + ttr}; the new deadline, or empty when the message is not reserved. */
    OptionalLong touch(int bucket, long id, long now);

    /**
     * Moves a pending message to {@code dueTime} (its priority offset kept), replacing its body when {@code body} is
     * not null. Answers DELAY when moved, READY or RESERVED when it is past that, empty when the bucket lacks it.
     */
    Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body);

    /** True when the bucket holds the message (pending, cold, ready or reserved). */
    boolean holds(int bucket, long id);

    /** True when the bucket holds no message at all. */
    boolean isEmpty(int bucket);

    /**
     * Reservations whose deadline is &lt;= now: back to the delay set at {@code now + backoff}, or out of Redis as
     * dead when their attempts are exhausted.
     */
    RequeueResult requeueExpired(int bucket, long now, int limit);

    /** How many ids wait in a topic's ready list of a bucket (deleted ones included until popped). */
    long readyCount(int bucket, String topic);

    /** The topics that have a ready list in a bucket. */
    Set<String> readyTopics(int bucket);

    enum Restored { WRITTEN, PRESENT, GONE }

    /**
     * @param ids       cold ids due by the time asked for, earliest first
     * @param nextScore the earliest cold score left after them, or {@link #NONE}
     */
    record ColdIds(List<Long> ids, long nextScore) {
    }

    /** A nacked message: dead, or due again at its message's due time. */
    record Nacked(boolean dead, Message message) {
    }

    /**
     * @param moved     what moved, in score order
     * @param nextScore the earliest score left in the bucket, or {@link #NONE}
     */
    record MoveResult(List<Moved> moved, long nextScore) {
    }

    record Moved(long id, String topic) {
    }

    /**
     * @param requeued     back in the delay set
     * @param dead         attempts exhausted, removed from Redis
     * @param nextDeadline the earliest reservation deadline left in the bucket, or {@link #NONE}
     */
    record RequeueResult(List<Requeued> requeued, List<Message> dead, long nextDeadline) {
    }

    /** A message back in the delay set, due again at {@code dueTime}. */
    record Requeued(long id, int attempts, long dueTime) {
    }
}
