package io.sdmq.server.security;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most {@code perSecond} push requests per second per caller: one token bucket per caller, holding one second's
 * worth, refilled continuously. 0 turns the limit off.
 */
final class PushRateLimit {
    /**
     * Callers are tokens (a handful) or, on an open server, client addresses (unbounded). Past this many the buckets
     * are dropped and start full again: a short extra burst, in exchange for bounded memory.
     */
    private static final int MAX_CALLERS = 10_000;

    private final int perSecond;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    PushRateLimit(int perSecond) {
        this.perSecond = perSecond;
    }

    int perSecond() {
        return perSecond;
    }

    /** Takes one push from {@code caller}'s allowance; false when it is used up for now. */
    boolean tryAcquire(String caller) {
        if (perSecond == 0) {
            return true;
        }
        if (buckets.size() >= MAX_CALLERS) {
            buckets.clear();
        }
        return buckets.computeIfAbsent(caller, c -> newBucket()).tryConsume(1);
    }

    private Bucket newBucket() {
        Bandwidth limit = Bandwidth.builder().capacity(perSecond).refillGreedy(perSecond, Duration.ofSeconds(1))
                .build();
        return Bucket.builder().addLimit(limit).build();
    }
}
