package io.sdmq.core;

import java.time.Duration;

import static io.sdmq.core.EngineSettings.requireNotNegative;
import static io.sdmq.core.EngineSettings.requirePositive;

/**
 * How the engine repairs Redis from MySQL and keeps MySQL small; its defaults are in {@link Builder}.
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
        requirePositive("reconcileInterval", reconcileInterval);
        requireNotNegative("waitPutAge", waitPutAge);
        requireNotNegative("grace", grace);
        requireNotNegative("retention", retention);
        requirePositive("purgeBatch", purgeBatch);
        requirePositive("restorePage", restorePage);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The recovery settings by name, each starting at its default. */
    public static final class Builder {
        private boolean autoRestore = true;
        private Duration reconcileInterval = Duration.ofSeconds(10);
        private Duration waitPutAge = Duration.ofSeconds(5);
        private Duration grace = Duration.ofSeconds(60);
        private Duration retention = Duration.ofDays(7);
        private int purgeBatch = 500;
        private int restorePage = 5_000;

        private Builder() {
        }

        // @formatter:off
        public Builder autoRestore(boolean value) { autoRestore = value; return this; }
        public Builder reconcileInterval(Duration value) { reconcileInterval = value; return this; }
        public Builder waitPutAge(Duration value) { waitPutAge = value; return this; }
        public Builder grace(Duration value) { grace = value; return this; }
        public Builder retention(Duration value) { retention = value; return this; }
        public Builder purgeBatch(int value) { purgeBatch = value; return this; }
        public Builder restorePage(int value) { restorePage = value; return this; }
        // @formatter:on

        public RecoverySettings build() {
            return new RecoverySettings(autoRestore, reconcileInterval, waitPutAge, grace, retention, purgeBatch,
                    restorePage);
        }
    }
}
