package io.sdmq.common;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The limits and defaults a push is checked against, and the check itself.
 *
 * @param maxDelayMs         the furthest in the future a message may be due
 * @param maxBodyBytes       the largest body, in UTF-8 bytes
 * @param defaultTtrMs       time-to-run when the producer gives none
 * @param defaultMaxAttempts deliveries before a message is dead, when the producer gives none
 * @param defaultRetryDelays backoff before each redelivery, when the producer gives none
 */
public record PushRules(long maxDelayMs, int maxBodyBytes, long defaultTtrMs, int defaultMaxAttempts,
                        List<Long> defaultRetryDelays) {

    public static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    public static final int MAX_BIZ_KEY = 128;
    public static final int MAX_PRIORITY = 999;
    public static final long MIN_TTR_MS = 1_000;
    public static final long MAX_TTR_MS = 12 * 3_600_000L;
    public static final int MAX_ATTEMPTS = 100;
    public static final int MAX_RETRY_DELAYS = 100;

    public PushRules {
        defaultRetryDelays = List.copyOf(defaultRetryDelays);
        if (maxDelayMs < 0 || maxBodyBytes < 1 || defaultMaxAttempts < 1 || defaultRetryDelays.isEmpty()) {
            throw new IllegalArgumentException("push rules out of range");
        }
        checkTtr("sdmq.default-ttr", defaultTtrMs);
    }

    /** Checks a request and builds the message it describes, or throws naming the first bad field. */
    public Message toMessage(PushRequest request, long id, long now) {
        String topic = checkTopic("topic", request.topic());
        String bizKey = request.bizKey();
        if (bizKey != null && (bizKey.isEmpty() || bizKey.length() > MAX_BIZ_KEY || !bizKey.strip().equals(bizKey))) {
            throw new InvalidRequestException("bizKey",
                    "must be 1.." + MAX_BIZ_KEY + " characters without leading or trailing spaces when given");
        }
        checkBody(request.body());
        long due = dueTime(request.delay(), request.deliverAt(), now);
        int priority = request.priority() == null ? 0 : request.priority();
        if (priority < 0 || priority > MAX_PRIORITY) {
            throw new InvalidRequestException("priority", "must be in 0.." + MAX_PRIORITY);
        }
        long ttr = request.ttr() == null ? defaultTtrMs : checkTtr("ttr", request.ttr());
        int maxAttempts = request.maxAttempts() == null ? defaultMaxAttempts : request.maxAttempts();
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
            throw new InvalidRequestException("maxAttempts", "must be in 1.." + MAX_ATTEMPTS);
        }
        return new Message(id, topic, bizKey, request.body(), priority, now, due, ttr, maxAttempts,
                checkRetryDelays(request.retryDelays()), 0);
    }

    public static String checkTopic(String field, String topic) {
        if (topic == null || !TOPIC.matcher(topic).matches()) {
            throw new InvalidRequestException(field, "must match [A-Za-z0-9._-]{1,64}");
        }
        return topic;
    }

    private void checkBody(String body) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        if (body.length() > maxBodyBytes || body.getBytes(StandardCharsets.UTF_8).length > maxBodyBytes) {
            throw new PayloadTooLargeException("body", maxBodyBytes);
        }
    }

    /** The due time a delay (ms) or an absolute deliverAt (epoch ms) names; exactly one of the two. */
    public long dueTime(Long delay, Long deliverAt, long now) {
        if ((delay == null) == (deliverAt == null)) {
            throw new InvalidRequestException("delay", "give exactly one of delay (ms) and deliverAt (epoch ms)");
        }
        if (delay != null) {
            if (delay < 0 || delay > maxDelayMs) {
                throw new InvalidRequestException("delay", "must be in 0.." + maxDelayMs + " ms");
            }
            return now + delay;
        }
        if (deliverAt < 0 || deliverAt > now + maxDelayMs) {
            throw new InvalidRequestException("deliverAt", "must be an epoch ms no later than now + " + maxDelayMs);
        }
        return deliverAt;
    }

    /** A time-to-run in ms, or an {@link InvalidRequestException} naming {@code field}. */
    public static long checkTtr(String field, long ttr) {
        if (ttr < MIN_TTR_MS || ttr > MAX_TTR_MS) {
            throw new InvalidRequestException(field, "must be in " + MIN_TTR_MS + ".." + MAX_TTR_MS + " ms");
        }
        return ttr;
    }

    /** Retry delays in ms (null: none given), or an {@link InvalidRequestException} naming retryDelays. */
    public static List<Long> checkRetryDelays(List<Long> delays) {
        if (delays == null) {
            return null;
        }
        if (delays.isEmpty() || delays.size() > MAX_RETRY_DELAYS) {
            throw new InvalidRequestException("retryDelays", "must hold 1.." + MAX_RETRY_DELAYS + " delays when given");
        }
        for (Long d : delays) {
            if (d == null || d < 0 || d > MAX_TTR_MS * 60) {
                throw new InvalidRequestException("retryDelays", "each delay must be in 0.." + MAX_TTR_MS * 60 + " ms");
            }
        }
        return delays;
    }
}
