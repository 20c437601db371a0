package io.sdmq.core;

import io.sdmq.common.PushRules;

import java.time.Duration;
import java.util.Objects;

/**
 * How the engine runs; Spring-free, bound from properties by the server.
 *
 * @param pushRules       limits and defaults every push is checked against
 * @param host            this instance's name in the transition log
 * @param moveBatch       most messages one move-due step takes from a bucket
 * @param maxSleep        longest the scheduler and reaper sleep without looking at Redis (covers other instances)
 * @param coldAfter       a message due further ahead than this is kept in Redis as its id alone, its body in MySQL
 *                        only, until it is due within half of it (zero: every message is kept whole)
 * @param journalCapacity pending MySQL writes per durable writer before producers are turned away (back-pressure)
 * @param backgroundCapacity pending non-terminal transitions before the threads that make them wait for the
 *                        background writer; it lets a burst's transitions wait behind the writes callers wait for
 *                        until half of it is queued
 * @param journalBatch    most writes folded into one MySQL transaction
 * @param writeTimeout    how long a caller waits for its MySQL commit before it answers 503
 * @param journalLinger   how long the background writer gathers non-terminal transitions before it writes them
 *                        (zero: at once); fewer, larger transactions
 * @param maxPopCount     most messages one long-poll may take
 * @param maxWait         longest a long-poll may wait
 * @param maxWaitingPerTopic most long-polls one topic may have waiting on this instance (more answer 429)
 * @param readySweep      how often topics with waiting consumers are checked for ready messages (repairs a lost
 *                        notification)
 * @param recovery        restore, reconcile and retention settings
 */
public record EngineSettings(PushRules pushRules, String host, int moveBatch, Duration maxSleep, Duration coldAfter,
                             int journalCapacity, int backgroundCapacity, int journalBatch, Duration writeTimeout,
                             Duration journalLinger, int maxPopCount, Duration maxWait, int maxWaitingPerTopic,
                             Duration readySweep, RecoverySettings recovery) {

    public EngineSettings {
        Objects.requireNonNull(pushRules, "pushRules");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(recovery, "recovery");
        if (moveBatch < 1 || journalCapacity < 1 || backgroundCapacity < 1 || journalBatch < 1 || maxPopCount < 1
                || maxWaitingPerTopic < 1) {
            throw new IllegalArgumentException("engine batch sizes and capacities must be positive");
        }
        requirePositive("maxSleep", maxSleep);
        if (coldAfter == null || coldAfter.isNegative()) {
            throw new IllegalArgumentException("coldAfter must be zero or a positive duration");
        }
        requirePositive("writeTimeout", writeTimeout);
        if (journalLinger == null || journalLinger.isNegative()) {
            throw new IllegalArgumentException("journalLinger must be zero or a positive duration");
        }
        requirePositive("maxWait", maxWait);
        requirePositive("readySweep", readySweep);
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration");
        }
    }
}
