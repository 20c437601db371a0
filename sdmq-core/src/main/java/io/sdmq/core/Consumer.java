package io.sdmq.core;

import io.sdmq.common.Message;
import io.sdmq.common.SdmqException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What consumers do with sdmq. Every method validates its input and throws a subclass of
 * {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface Consumer {

    /** Up to {@code count} due messages of a topic, reserved for their time-to-run; empty after {@code timeout}. */
    CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout);

    /** Acknowledges a reserved message: it is done. */
    void finish(long id);

    /**
     * Acknowledges many reserved messages with one group commit; for each id, in order, empty when it was finished
     * or the error that says why not.
     */
    List<Optional<SdmqException>> finishAll(List<Long> ids);

    /** Gives a reserved message back: redelivered after {@code delay} ms, or per its retry policy when null. */
    void nack(long id, Long delay);

    /** Extends a reservation by the message's time-to-run; answers the new deadline. */
    long touch(long id);
}
