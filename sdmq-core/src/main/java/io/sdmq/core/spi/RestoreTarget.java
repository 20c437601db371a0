package io.sdmq.core.spi;

import io.sdmq.common.Message;

import java.util.List;

/** What a restore from MySQL asks of the fast schedule. */
public interface RestoreTarget extends BucketSet {

    /**
     * Puts messages from MySQL back into one bucket's delay set in one step, each unless the bucket holds it or it
     * finished, was deleted or died a moment ago (the store remembers such ids for a few minutes, so a restore racing
     * a finish cannot bring a message back). One due beyond the hot window from {@code now} goes back cold. Answers
     * each message's outcome, in order.
     */
    List<Restored> restore(int bucket, List<Restoring> messages, long now);

    /** True when the bucket holds the message (pending, cold, ready or reserved). */
    boolean holds(int bucket, long id);

    /** True when the bucket holds no message at all. */
    boolean isEmpty(int bucket);

    /** A message from MySQL and the score it goes back into its bucket at. */
    record Restoring(Message message, long score) {
    }

    enum Restored { WRITTEN, PRESENT, GONE }
}
