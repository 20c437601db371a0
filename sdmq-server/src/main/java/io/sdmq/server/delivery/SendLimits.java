package io.sdmq.server.delivery;

import java.time.Duration;
import java.util.Map;

/**
 * The two settings every delivery type has, which the dispatcher enforces for its sink.
 *
 * @param timeout     the longest a send may take from its call to its outcome; a send that takes longer fails
 * @param concurrency the most sends this instance keeps under way at once for the topic
 */
record SendLimits(Duration timeout, int concurrency) {

    SendLimits {
        if (timeout.isNegative() || timeout.isZero() || concurrency < 1) {
            throw new IllegalArgumentException("a sink's timeout and concurrency must be positive, a bug");
        }
    }

    /** The limits of stored settings, which every {@link SinkType#check} fills in: timeout (ms), concurrency. */
    static SendLimits of(Map<String, Object> delivery) {
        return new SendLimits(Duration.ofMillis(((Number) delivery.get("timeout")).longValue()),
                ((Number) delivery.get("concurrency")).intValue());
    }
}
