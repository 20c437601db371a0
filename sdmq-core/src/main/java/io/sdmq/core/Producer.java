package io.sdmq.core;

import io.sdmq.common.PushRequest;

import java.util.List;

/**
 * What producers do with sdmq. Every method validates its input and throws a subclass of
 * {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface Producer {

    /**
     * Accepts a message once it is committed to MySQL. A taken {@code (topic, bizKey)} answers the earlier id and,
     * with {@link OnDuplicate#REPLACE}, gives a pending holder the new body and time.
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
