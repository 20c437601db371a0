package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The pending messages of the fast schedule: what producers change and the scheduler moves to the ready lists. Every
 * change is one atomic step on one bucket; times are passed in ({@code now}); races are answered with values.
 */
public interface Schedule extends BucketSet {

    /**
     * Adds messages to one bucket in one step, each unless it is there already (a replay changes nothing). One due
     * beyond the store's hot window from {@code now} is kept cold: the bucket keeps only its id and score, its body
     * stays in MySQL until {@link #warm} brings it in.
     *
     * @return true when one of them is now the earliest of the bucket, so the scheduler must wake earlier
     */
    boolean push(int bucket, List<Message> messages, long now);

    /**
     * {@link #push} into several buckets, {@code messages} giving each one's, in one round trip where the store can.
     * Per bucket in order, a supplier of its answer that throws instead when that bucket's push failed.
     */
    default List<Supplier<Boolean>> pushEach(int[] buckets, List<List<Message>> messages, long now) {
        return BucketSet.oneByOne(buckets.length, i -> push(buckets[i], messages.get(i), now));
    }

    /**
     * Adds due messages straight to their topics' ready lists in one step, each unless the bucket holds its meta
     * already (a replay changes nothing): what a bulk requeue brings back due now skips the delay set and the
     * scheduler's move.
     *
     * @return the messages added, in order
     */
    List<Moved> pushReady(int bucket, List<Message> messages);

    /** Moves up to {@code limit} messages with score &lt;= now to their topics' ready lists. */
    MoveResult moveDue(int bucket, long now, int limit);

    /**
     * {@link #moveDue} of several buckets, in one round trip where the store can. Per bucket in order, a supplier of
     * its result that throws instead when that bucket's move failed: the other buckets' moves stand.
     */
    default List<Supplier<MoveResult>> moveDueEach(int[] buckets, long now, int limit) {
        return BucketSet.oneByOne(buckets.length, i -> moveDue(buckets[i], now, limit));
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

    /** Forgets a message wherever it is in the bucket; the status it had, or empty when the bucket does not hold it. */
    Optional<MessageStatus> delete(int bucket, long id, long now);

    /**
     * Moves a pending message to {@code dueTime} (its priority offset kept), replacing its body when {@code body} is
     * not null. Answers DELAY when moved, READY or RESERVED when it is past that, empty when the bucket lacks it.
     */
    Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body);

    /** {@link #delete} of several messages of the bucket in one step; per id in order, the status it had or empty. */
    default List<Optional<MessageStatus>> deleteAll(int bucket, List<Long> ids, long now) {
        return ids.stream().map(id -> delete(bucket, id, now)).toList();
    }

    /** {@link #reschedule} of several messages of the bucket in one step, their bodies kept; per id in order. */
    default List<Optional<MessageStatus>> rescheduleAll(int bucket, List<Long> ids, long dueTime) {
        return ids.stream().map(id -> reschedule(bucket, id, dueTime, null)).toList();
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
     * @param ids       cold ids due by the time asked for, earliest first
     * @param nextScore the earliest cold score left after them, or {@link #NONE}
     */
    record ColdIds(List<Long> ids, long nextScore) {
    }
}
