package io.sdmq.server.delivery;

/**
 * The outcome of one send.
 *
 * @param outcome what becomes of the message
 * @param note    why it failed, for the status log (at most 255 characters are kept); null when delivered
 * @param delayMs for {@link Outcome#RETRY}, the receiver's own wait (e.g. a {@code Retry-After}) in place of the
 *                topic's backoff; else null
 */
public record Sent(Outcome outcome, String note, Long delayMs) {
    private static final Sent DELIVERED = new Sent(Outcome.DELIVERED, null, null);

    /** What becomes of a message after its send. */
    public enum Outcome {
        /** The receiver has it: finished. */
        DELIVERED,
        /** A failed attempt: due again after the topic's backoff (or {@code delayMs}), DEAD after its last attempt. */
        RETRY,
        /** A failure no retry can help: DEAD at once ({@code /requeue} brings it back). */
        DEAD
    }

    public static Sent delivered() {
        return DELIVERED;
    }

    public static Sent retry(String note) {
        return new Sent(Outcome.RETRY, note, null);
    }

    public static Sent retryAfter(String note, long delayMs) {
        return new Sent(Outcome.RETRY, note, delayMs);
    }

    public static Sent dead(String note) {
        return new Sent(Outcome.DEAD, note, null);
    }
}
