package io.sdmq.core;

import io.sdmq.common.PushRules;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How the engine runs; Spring-free. Every default is defined once, in {@link Builder}: build with
 * {@code EngineSettings.builder().host("a").moveBatch(500).build()}; the server binds its properties onto it.
 *
 * @param pushRules          limits and defaults every push is checked against
 * @param host               this instance's name in the status log
 * @param moveBatch          most messages one move-due step takes from a bucket
 * @param maxSleep           longest the scheduler and reaper sleep without looking at Redis (covers other instances)
 * @param coldAfter          a message due further ahead than this is kept in Redis as its id alone, its body in MySQL
 *                           only, until it is due within half of it (zero: every message is kept whole)
 * @param writeCapacity      pending MySQL writes that callers wait for before producers are turned away
 * @param backgroundCapacity pending non-terminal transitions before the threads that make them wait
 * @param writeBatch         most writes folded into one MySQL transaction
 * @param writeTimeout       how long a caller waits for its MySQL commit before it answers 503
 * @param linger             how long the background writer gathers non-terminal transitions before it writes them
 * @param maxPopCount        most messages one long-poll may take
 * @param maxWait            longest a long-poll may wait
 * @param maxPopLinger       longest a long-poll may linger, once a first message is ready, to fill its batch
 * @param maxWaitingPerTopic most long-polls one topic may have waiting on this instance (more answer 429)
 * @param readySweep         how often topics with waiting consumers are checked for ready messages (repairs a lost
 *                           notification)
 * @param recovery           restore, reconcile and retention settings
 */
public record EngineSettings(PushRules pushRules, String host, int moveBatch, Duration maxSleep, Duration coldAfter,
                             int writeCapacity, int backgroundCapacity, int writeBatch, Duration writeTimeout,
                             Duration linger, int maxPopCount, Duration maxWait, Duration maxPopLinger,
                             int maxWaitingPerTopic, Duration readySweep, RecoverySettings recovery) {

    public EngineSettings {
        Objects.requireNonNull(pushRules, "pushRules");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(recovery, "recovery");
        requirePositive("moveBatch", moveBatch);
        requirePositive("writeCapacity", writeCapacity);
        requirePositive("backgroundCapacity", backgroundCapacity);
        requirePositive("writeBatch", writeBatch);
        requirePositive("maxPopCount", maxPopCount);
        requirePositive("maxWaitingPerTopic", maxWaitingPerTopic);
        requirePositive("maxSleep", maxSleep);
        requireNotNegative("coldAfter", coldAfter);
        requirePositive("writeTimeout", writeTimeout);
        requireNotNegative("linger", linger);
        requirePositive("maxWait", maxWait);
        requireNotNegative("maxPopLinger", maxPopLinger);
        requirePositive("readySweep", readySweep);
    }

    public static Builder builder() {
        return new Builder();
    }

    static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, not " + value);
        }
    }

    static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, not " + value);
        }
    }

    static void requireNotNegative(String name, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be zero or a positive duration, not " + value);
        }
    }

    /** The engine's settings by name, each starting at its default. */
    public static final class Builder {
        private Duration maxDelay = Duration.ofDays(365);
        private int maxBodyBytes = 64 * 1024;
        private Duration defaultTtr = Duration.ofSeconds(30);
        private int maxAttempts = 8;
        private List<Duration> retryDelays = List.of(Duration.ZERO, Duration.ofSeconds(10), Duration.ofMinutes(1),
                Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2),
                Duration.ofHours(6));
        private String host = "localhost";
        private int moveBatch = 1_000;
        private Duration maxSleep = Duration.ofSeconds(1);
        private Duration coldAfter = Duration.ofHours(1);
        private int writeCapacity = 100_000;
        private int backgroundCapacity = 500_000;
        private int writeBatch = 1_000;
        private Duration writeTimeout = Duration.ofSeconds(5);
        private Duration linger = Duration.ofMillis(60);
        private int maxPopCount = 100;
        private Duration maxWait = Duration.ofSeconds(60);
        private Duration maxPopLinger = Duration.ofMillis(50);
        private int maxWaitingPerTopic = 1_000;
        private Duration readySweep = Duration.ofSeconds(1);
        private final RecoverySettings.Builder recovery = RecoverySettings.builder();

        private Builder() {
        }

        // @formatter:off
        public Builder maxDelay(Duration value) { maxDelay = value; return this; }
        public Builder maxBodyBytes(int value) { maxBodyBytes = value; return this; }
        public Builder defaultTtr(Duration value) { defaultTtr = value; return this; }
        public Builder maxAttempts(int value) { maxAttempts = value; return this; }
        public Builder retryDelays(List<Duration> value) { retryDelays = List.copyOf(value); return this; }
        public Builder host(String value) { host = value; return this; }
        public Builder moveBatch(int value) { moveBatch = value; return this; }
        public Builder maxSleep(Duration value) { maxSleep = value; return this; }
        public Builder coldAfter(Duration value) { coldAfter = value; return this; }
        public Builder writeCapacity(int value) { writeCapacity = value; return this; }
        public Builder backgroundCapacity(int value) { backgroundCapacity = value; return this; }
        public Builder writeBatch(int value) { writeBatch = value; return this; }
        public Builder writeTimeout(Duration value) { writeTimeout = value; return this; }
        public Builder linger(Duration value) { linger = value; return this; }
        public Builder maxPopCount(int value) { maxPopCount = value; return this; }
        public Builder maxWait(Duration value) { maxWait = value; return this; }
        public Builder maxPopLinger(Duration value) { maxPopLinger = value; return this; }
        public Builder maxWaitingPerTopic(int value) { maxWaitingPerTopic = value; return this; }
        public Builder readySweep(Duration value) { readySweep = value; return this; }
        // @formatter:on

        /** Sets recovery settings by name: {@code .recovery(r -> r.retention(Duration.ZERO))}. */
        public Builder recovery(Consumer<RecoverySettings.Builder> settings) {
            settings.accept(recovery);
            return this;
        }

        public EngineSettings build() {
            PushRules rules = new PushRules(maxDelay.toMillis(), maxBodyBytes, defaultTtr.toMillis(), maxAttempts,
                    retryDelays.stream().map(Duration::toMillis).toList());
            return new EngineSettings(rules, host, moveBatch, maxSleep, coldAfter, writeCapacity,
                    backgroundCapacity, writeBatch, writeTimeout, linger, maxPopCount, maxWait, maxPopLinger,
                    maxWaitingPerTopic, readySweep, recovery.build());
        }
    }
}
