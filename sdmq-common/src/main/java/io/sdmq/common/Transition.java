package io.sdmq.common;

/**
 * One status change of one message, as written to {@code sdmq_message_log}.
 *
 * @param messageId the message
 * @param from      the status before; null for the first row of a message
 * @param to        the status after
 * @param changedAt when it happened (epoch ms, server clock), not when it was written
 * @param bucket    the Redis key of the bucket that holds it (its delay zset)
 * @param attempts  the message's attempts after the change, or null when unchanged
 * @param dueTime   the message's new due time, or null when unchanged
 * @param thread    the thread that made the change
 * @param note      a short free-text reason, or null
 * @param host      the host of the instance that wrote it, as read back from the status log; null before it is written
 */
public record Transition(long messageId, MessageStatus from, MessageStatus to, long changedAt, String bucket,
                         Integer attempts, Long dueTime, String thread, String note, String host) {

    public Transition {
        if (to == null) {
            throw new IllegalArgumentException("a transition needs a target status");
        }
        if (from != null && !from.canMoveTo(to)) {
            throw new IllegalStateException(from + " -> " + to + " is not a legal transition; this is a bug");
        }
    }

    /** A transition not yet written: the status log records the writing instance's host. */
    public Transition(long messageId, MessageStatus from, MessageStatus to, long changedAt, String bucket,
                      Integer attempts, Long dueTime, String thread, String note) {
        this(messageId, from, to, changedAt, bucket, attempts, dueTime, thread, note, null);
    }

    /** A transition made now by the calling thread. */
    public static Transition of(long messageId, MessageStatus from, MessageStatus to, long changedAt, String bucket) {
        return new Transition(messageId, from, to, changedAt, bucket, null, null,
                Thread.currentThread().getName(), null);
    }

    public Transition withAttempts(int newAttempts) {
        return new Transition(messageId, from, to, changedAt, bucket, newAttempts, dueTime, thread, note, host);
    }

    public Transition withDueTime(long newDueTime) {
        return new Transition(messageId, from, to, changedAt, bucket, attempts, newDueTime, thread, note, host);
    }

    public Transition withNote(String newNote) {
        return new Transition(messageId, from, to, changedAt, bucket, attempts, dueTime, thread, newNote, host);
    }
}
