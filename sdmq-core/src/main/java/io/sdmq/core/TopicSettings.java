package io.sdmq.core;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One topic's settings; a null field falls back to the server's default. Times are in ms, as on a push.
 *
 * @param ttr         time-to-run of a message pushed without one
 * @param maxAttempts deliveries before a message pushed without maxAttempts is dead
 * @param retryDelays backoff before each redelivery of a message pushed without retryDelays
 * @param priority    priority of a message pushed without one
 * @param maxDelay    the furthest ahead a message of the topic may be due (at most the server's)
 * @param retention   how long the topic's terminal messages are kept, in place of the server's retention
 * @param rateLimit   most messages handed out per second, across all instances; more wait, none is refused
 * @param maxInFlight most messages RESERVED at once, across all instances; more wait
 * @param paused      pushes are accepted, nothing is handed out
 * @param delivery    where due messages go when not to consumers that poll: a JSON object with a {@code type}
 *                    ({@code webhook}, {@code rabbitmq}, {@code kafka}) and that type's fields, checked and read by
 *                    the server; null when consumers poll
 */
public record TopicSettings(Long ttr, Integer maxAttempts, List<Long> retryDelays, Integer priority, Long maxDelay,
                            Long retention, Integer rateLimit, Integer maxInFlight, boolean paused,
                            Map<String, Object> delivery) {
    /** The largest rateLimit and maxInFlight. */
    public static final int MAX_LIMIT = 1_000_000;
    /** The longest retention: ten years. */
    public static final long MAX_RETENTION_MS = 3_650L * 86_400_000;

    /** No setting: what a topic without a row has. */
    public static final TopicSettings NONE = new TopicSettings(null, null, null, null, null, null, null, null, false,
            null);

    public TopicSettings {
        // a null delay is kept for check() to name
        retryDelays = retryDelays == null ? null : Collections.unmodifiableList(new ArrayList<>(retryDelays));
        delivery = delivery == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(delivery));
    }

    /**
     * Checks every field against the same ranges as a push, the maxDelay against the server's, or throws an
     * {@link InvalidRequestException} naming the first bad field and its rule.
     */
    public TopicSettings check(PushRules server) {
        if (ttr != null) {
            PushRules.checkTtr("ttr", ttr);
        }
        if (maxAttempts != null && (maxAttempts < 1 || maxAttempts > PushRules.MAX_ATTEMPTS)) {
            throw new InvalidRequestException("maxAttempts", "must be in 1.." + PushRules.MAX_ATTEMPTS);
        }
        PushRules.checkRetryDelays(retryDelays);
        if (priority != null && (priority < 0 || priority > PushRules.MAX_PRIORITY)) {
            throw new InvalidRequestException("priority", "must be in 0.." + PushRules.MAX_PRIORITY);
        }
        if (maxDelay != null && (maxDelay < 0 || maxDelay > server.maxDelayMs())) {
            throw new InvalidRequestException("maxDelay", "must be in 0.." + server.maxDelayMs() + " ms");
        }
        if (retention != null && (retention < 60_000 || retention > MAX_RETENTION_MS)) {
            throw new InvalidRequestException("retention", "must be in 60000.." + MAX_RETENTION_MS + " ms");
        }
        checkLimit("rateLimit", rateLimit);
        checkLimit("maxInFlight", maxInFlight);
        if (delivery != null && !(delivery.get("type") instanceof String)) {
            throw new InvalidRequestException("delivery.type", "must be a string");
        }
        return this;
    }

    private static void checkLimit(String field, Integer value) {
        if (value != null && (value < 1 || value > MAX_LIMIT)) {
            throw new InvalidRequestException(field, "must be in 1.." + MAX_LIMIT);
        }
    }

    /** The same settings, paused or not. */
    public TopicSettings withPaused(boolean value) {
        return new TopicSettings(ttr, maxAttempts, retryDelays, priority, maxDelay, retention, rateLimit, maxInFlight,
                value, delivery);
    }

    /** The same settings with another delivery (null: consumers poll). */
    public TopicSettings withDelivery(Map<String, Object> value) {
        return new TopicSettings(ttr, maxAttempts, retryDelays, priority, maxDelay, retention, rateLimit, maxInFlight,
                paused, value);
    }

    /** True when pops must ask Redis first: the topic has a rate limit or an in-flight limit. */
    public boolean limited() {
        return rateLimit != null || maxInFlight != null;
    }

    /** The server's push rules with this topic's defaults and maxDelay in place of the server's. */
    public PushRules pushRules(PushRules server) {
        return new PushRules(maxDelay == null ? server.maxDelayMs() : maxDelay, server.maxBodyBytes(),
                ttr == null ? server.defaultTtrMs() : ttr, maxAttempts == null ? server.defaultMaxAttempts()
                : maxAttempts, server.defaultRetryDelays());
    }

    /** The request with this topic's priority and retry delays where the producer gave none. */
    public PushRequest fill(PushRequest r) {
        if ((priority == null || r.priority() != null) && (retryDelays == null || r.retryDelays() != null)) {
            return r;
        }
        return new PushRequest(r.topic(), r.bizKey(), r.body(), r.delay(), r.deliverAt(),
                r.priority() == null ? priority : r.priority(), r.ttr(), r.maxAttempts(),
                r.retryDelays() == null ? retryDelays : r.retryDelays());
    }
}
