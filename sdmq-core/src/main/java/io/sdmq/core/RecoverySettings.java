package io.sdmq.core;

import java.time.Duration;

/**
 * How the engine repairs Redis from MySQL and keeps MySQL small.
 *
 * @param autoRestore       at start, restore buckets that are empty in Redis from MySQL
 * @param reconcileInterval how often WAIT_PUT and overdue-but-missing messages are put back into Redis
 * @param waitPutAge        how long a message may stay WAIT_PUT before the reconciler schedules it
 * @param grace             how far past due a scheduled message must be before the reconciler checks Redis holds it
 * @param retention         how long terminal messages are kept; zero keeps them forever
 * @param purgeBatch        most messages one purge transaction deletes
 * @param restorePage       messages a restore reads from MySQL and writes to Redis at a time
 */
public record RecoverySettings(boolean autoRestore, Duration reconcileInterval, Duration waitPutAge, Duration grace,
                               Duration retention, int purgeBatch, int restorePage) {

    public RecoverySettings {
        if (reconcileInterval.isNegative() || reconcileInterval.isZero() || waitPutAge.isNegative()
                || grace.isNegative() || retention.isNegative() || purgeBatch < 1 || restorePage < 1) {
            throw new IllegalArgumentException("recovery settings out of range");
        }
    }

    public static RecoverySettings defaults() {
        return new RecoverySettings(true, Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(60),
                Duration.ofDays(7), 500, 5_000);
    }
}
