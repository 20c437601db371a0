package io.sdmq.core.spi;

/**
 * What happens to messages, told as it happens, for metrics: the engine calls it on the thread that made the change,
 * after Redis made it, with what that change already had at hand (no extra Redis or MySQL round trip is made for it).
 * An implementation must be quick, thread-safe and must not throw. Counts are of this instance's changes only.
 */
public interface MessageEvents {

    /** Tells nothing: the engine's default. */
    MessageEvents NONE = new MessageEvents() {
    };

    /** A new message of {@code topic} is committed and scheduled (a duplicate or a replace is not a new message). */
    default void pushed(String topic) {
    }

    /** A message was handed out to a consumer at {@code now}; it was due at {@code dueTime} (epoch ms both). */
    default void delivered(String topic, long dueTime, long now) {
    }

    /** A reservation was finished. */
    default void finished(String topic) {
    }

    /** A consumer gave a reservation back ({@code /nack}), whether the message is due again or dead after it. */
    default void nacked(String topic) {
    }

    /** A reservation's time-to-run passed and the message is due again after its backoff. */
    default void redelivered(String topic) {
    }

    /** A message became dead: its attempts were exhausted (by a nack or a time-to-run) or its consumer gave up. */
    default void dead(String topic) {
    }
}
