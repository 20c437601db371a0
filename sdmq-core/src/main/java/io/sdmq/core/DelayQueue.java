package io.sdmq.core;

import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.SdmqException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What producers and consumers do with sdmq. Every method validates its input and throws a subclass of
 * {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface DelayQueue {

    /** Accepts a message once it is committed to MySQL; a taken {@code (topic, bizKey)} answers the earlier id. */
    default PushResult push(PushRequest request) {
        return push(request, OnDuplicate.IGNORE);
    }

    /**
     * As {@link #push(PushRequest)}; with {@link OnDuplicate#REPLACE} a pending duplicate takes the new body and time.
     */
    PushResult push(PushRequest request, OnDuplicate onDuplicate);

    /** Up to 1 000 messages, all checked before any is written, committed in one transaction. */
    List<PushResult> pushBatch(List<PushRequest> requests, OnDuplicate onDuplicate);

    /** Cancels a pending or reserved message. */
    void delete(long id);

    /** Cancels the message holding a business key. */
    void deleteByKey(String topic, String bizKey);

    /** Moves a pending message to a new time, keeping its id; answers the new due time. */
    long reschedule(long id, Long delay, Long deliverAt);

    /**
     * Acknowledges many reserved messages with one group commit; for each id, in order, empty when it was finished
     * or the error that says why not.
     */
    List<Optional<SdmqException>> finishAll(List<Long> ids);

    /** Gives a reserved message back: redelivered after {@code delay} ms, or per its retry policy when null. */
    void nack(long id, Long delay);

    /** Extends a reservation by the message's time-to-run; answers the new deadline. */
    long touch(long id);

    /** Admin: brings a DEAD or EXPIRED message back, due now, with its attempts counted afresh. */
    void requeue(long id);

    /** A message with its status and history, from MySQL. */
    JobView job(long id);

    /** Up to {@code count} due messages of a topic, reserved for their time-to-run; empty after {@code timeout}. */
    CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout);

    /** Acknowledges a reserved message: it is done. */
    void finish(long id);

    /**
     * Rebuilds Redis from MySQL without deleting anything: every non-terminal message Redis does not hold is put
     * back; an overdue one is due now ({@code expire}) or marked EXPIRED (not {@code expire}).
     */
    RestoreCounts restore(boolean expire);

    /** The same for one message. */
    RestoreOutcome restoreJob(long id, boolean expire);

    /** What a push does when its {@code (topic, bizKey)} is taken. */
    enum OnDuplicate {
        /** Answer the existing id and change nothing. */
        IGNORE,
        /** Replace the pending message's body and due time (debounce); 409 once it is ready or reserved. */
        REPLACE
    }

    enum PushOutcome { CREATED, DUPLICATE, REPLACED }

    /**
     * @param id      the message's id (the existing one for a duplicate)
     * @param outcome created, a duplicate left alone, or a duplicate replaced
     */
    record PushResult(long id, PushOutcome outcome) {
        public boolean duplicate() {
            return outcome != PushOutcome.CREATED;
        }
    }
}
