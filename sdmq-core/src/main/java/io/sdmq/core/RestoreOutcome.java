package io.sdmq.core;

/** What a restore did with one message. */
public enum RestoreOutcome {
    /** Put back into Redis. */
    RESTORED,
    /** Left alone: Redis held it. */
    ALREADY_PRESENT,
    /** Overdue and marked EXPIRED. */
    EXPIRED,
    /** Skipped: it finished, was deleted or died while the restore ran. */
    GONE
}
