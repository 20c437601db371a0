package io.sdmq.core;

import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What producers and consumers do with sdmq. Every method validates its input and throws a subclass of
 * {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface DelayQueue {

    /** Accepts a message once it is committed to MySQL; a taken {@code (topic, bizKey)} answers the earlier id. */
    PushResult push(PushRequest request);

    /** Cancels a pending or reserved message. */
    void delete(long id);

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

    /**
     * @param id        the message's id
     * @param duplicate true when the {@code (topic, bizKey)} was taken and nothing changed
     */
    record PushResult(long id, boolean duplicate) {
    }
}
