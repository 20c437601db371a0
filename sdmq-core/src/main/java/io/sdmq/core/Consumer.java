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

    /**
     * Up to {@code count} due messages of a topic, reserved for their time-to-run; empty after {@code timeout}. Once a
     * first message is ready it waits up to {@code linger} more (at most the engine's {@code maxPopLinger}, never
     * past the timeout) for the rest of the {@code count}, so that messages falling due one at a time still come in
     * batches.
     */
    CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout, Duration linger);

    /**
     * As {@link #pop} without a linger, each message reserved for {@code reservation} from the moment it is popped,
     * or for its time-to-run when that is longer: a sink pops for as long as its send may take, so that none is
     * handed out again while its send is under way, however long the pop waited.
     */
    CompletableFuture<List<Message>> popReserved(String topic, int count, Duration timeout, Duration reservation);

    /**
     * A consumer's loop in one call: finishes {@code ids} as {@link #finishAll} does (none when empty), then pops as
     * {@link #pop} does. The pop's arguments are checked first, so a bad one finishes nothing.
     */
    FinishedAndPopped finishAndPop(List<Long> ids, String topic, int count, Duration timeout, Duration linger);

    /** What {@link #finishAndPop} finished (per id, as {@link #finishAll} answers) and what it pops. */
    record FinishedAndPopped(List<Optional<SdmqException>> finished, CompletableFuture<List<Message>> popped) {
    }

    /** Acknowledges a reserved message: it is done. */
    void finish(long id);

    /**
     * Acknowledges many reserved messages with one group commit; for each id, in order, empty when it was finished
     * or the error that says why not.
     */
    List<Optional<SdmqException>> finishAll(List<Long> ids);

    /**
     * As {@link #finishAll}, for messages a push-delivery sink has handed over, where no caller waits on the
     * acknowledgement: their {@code FINISHED} goes to MySQL with the background writer's next batch, behind their
     * {@code READY} and {@code RESERVED}, so each message's row is written once. Redis forgets them at once; a crash
     * before that batch is written delivers them again (at least once).
     */
    List<Optional<SdmqException>> finishDelivered(List<Long> ids);

    /** Gives a reserved message back: redelivered after {@code delay} ms, or per its retry policy when null. */
    void nack(long id, Long delay);

    /**
     * Gives up on a reserved message: it is {@code DEAD} at once, whatever attempts it has left, as when its last
     * attempt is nacked; {@code /requeue} brings it back. For a consumer that knows a retry cannot help.
     */
    void nackAsDead(long id);

    /**
     * Gives a reserved message back as {@link #nack} (dead false) or {@link #nackAsDead} (dead true) do, with
     * {@code note} in its status log row when it is not null: why, e.g. what a sink's receiver answered.
     */
    void nack(long id, Long delay, boolean dead, String note);

    /** Extends a reservation by the message's time-to-run; answers the new deadline. */
    long touch(long id);
}
