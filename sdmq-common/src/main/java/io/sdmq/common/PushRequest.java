package io.sdmq.common;

import java.util.List;

/**
 * A producer's message as it arrives; every field is checked by {@link PushRules}.
 * Boxed fields are optional on the wire.
 */
public record PushRequest(String topic, String bizKey, String body, Long delay, Long deliverAt, Integer priority,
                          Long ttr, Integer maxAttempts, List<Long> retryDelays) {
}
