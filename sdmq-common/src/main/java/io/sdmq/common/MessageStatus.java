package io.sdmq.common;

/**
 * Where a message is in its life. Stored by name in MySQL, so ops can read it in SQL.
 * The legal transitions are the single table in {@link #canMoveTo(MessageStatus)}.
 */
public enum MessageStatus {
    /** Durable in MySQL, not yet in Redis. */
    WAIT_PUT,
    /** In its bucket's delay set, waiting for its due time. */
    DELAY,
    /** Due, in its topic's ready list, waiting for a consumer. */
    READY,
    /** Popped by a consumer, its time-to-run running. */
    RESERVED,
    /** Acknowledged by a consumer. */
    FINISHED,
    /** Cancelled by a producer. */
    DELETED,
    /** Attempts exhausted. */
    DEAD,
    /** Overdue and skipped by a restore with {@code expire=false}. */
    EXPIRED;

    public boolean isTerminal() {
        return switch (this) {
            case FINISHED, DELETED, DEAD, EXPIRED -> true;
            case WAIT_PUT, DELAY, READY, RESERVED -> false;
        };
    }

    public boolean canMoveTo(MessageStatus next) {
        return switch (this) {
            case WAIT_PUT -> next == DELAY || next == DELETED || next == EXPIRED;
            case DELAY -> next == READY || next == DELAY || next == DELETED || next == EXPIRED;
            case READY -> next == RESERVED || next == DELAY || next == DELETED || next == EXPIRED;
            case RESERVED -> next == FINISHED || next == DELAY || next == RESERVED || next == DELETED || next == DEAD
                    || next == EXPIRED;
            case DEAD, EXPIRED -> next == WAIT_PUT || next == DELAY || next == READY || next == DELETED;
            case FINISHED, DELETED -> false;
        };
    }
}
