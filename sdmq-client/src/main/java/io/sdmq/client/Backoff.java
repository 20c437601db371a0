package io.sdmq.client;

import java.time.Duration;
import java.util.Random;

/**
 * The wait before each retry: {@code first}, doubled before each next retry up to {@code max}, and drawn at random
 * between half of that and all of it, so that clients that failed at the same moment do not all come back at the
 * same moment, and none comes back at once.
 */
final class Backoff {
    private final long firstNanos;
    private final long maxNanos;
    private final Random random;

    Backoff(Duration first, Duration max, Random random) {
        this.firstNanos = first.toNanos();
        this.maxNanos = Math.max(first.toNanos(), max.toNanos());
        this.random = random;
    }

    /** The wait before retry number {@code retry} (1 for the first). */
    Duration before(int retry) {
        long ceiling = ceiling(retry);
        long half = ceiling / 2;
        return Duration.ofNanos(half + (long) (random.nextDouble() * (ceiling - half)));
    }

    /** The most {@link #before} can answer for {@code retry}: {@code first × 2^(retry-1)}, at most {@code max}. */
    long ceiling(int retry) {
        int doublings = Math.min(retry - 1, 62);
        long ceiling = firstNanos;
        for (int i = 0; i < doublings && ceiling < maxNanos; i++) {
            ceiling = ceiling * 2;
        }
        return Math.min(ceiling, maxNanos);
    }
}
