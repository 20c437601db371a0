package io.sdmq.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A message to push, immutable: {@code PushMessage.builder("order-timeout", "{\"orderId\":42}")
 * .delay(Duration.ofMinutes(30)).bizKey("order-42").build()}.
 *
 * <p>Only what is cheap and plainly wrong is refused here (a null topic or body); every other rule (the topic's
 * characters, the body's size, the ranges of delay, priority, ttr, maxAttempts, one of delay and deliverAt) is the
 * server's to judge, and a message that breaks one fails with {@link SdmqClientException.InvalidRequest} naming the
 * field. A field left null takes the server's default.
 *
 * @param topic       required
 * @param body        required
 * @param delay       due this long after the push; give at most one of delay and deliverAt (neither: due now,
 *                    sent as delay 0)
 * @param deliverAt   due at this instant
 * @param bizKey      optional business key, unique per topic: a push with a taken key is idempotent
 * @param priority    0..999, an offset in ms added to the due time; lower goes first among messages due together
 * @param ttr         time-to-run after a delivery before it is handed out again
 * @param maxAttempts deliveries before the message is dead
 * @param retryDelays backoff before each redelivery, the last one repeating
 * @param onDuplicate what the push does when its {@code (topic, bizKey)} is taken; null means
 *                    {@link OnDuplicate#IGNORE}
 */
public record PushMessage(String topic, String body, Duration delay, Instant deliverAt, String bizKey,
                          Integer priority, Duration ttr, Integer maxAttempts, List<Duration> retryDelays,
                          OnDuplicate onDuplicate) {

    public PushMessage {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        retryDelays = retryDelays == null ? null : List.copyOf(retryDelays);
        onDuplicate = onDuplicate == null ? OnDuplicate.IGNORE : onDuplicate;
    }

    /** A message on {@code topic} with {@code body}, due now unless the builder says otherwise. */
    public static Builder builder(String topic, String body) {
        return new Builder(topic, body);
    }

    /** A message on {@code topic} with {@code body}, due now, every other field the server's default. */
    public static PushMessage of(String topic, String body) {
        return builder(topic, body).build();
    }

    /** Builds a {@link PushMessage}; each setter replaces what an earlier call set. */
    public static final class Builder {
        private final String topic;
        private final String body;
        private Duration delay;
        private Instant deliverAt;
        private String bizKey;
        private Integer priority;
        private Duration ttr;
        private Integer maxAttempts;
        private List<Duration> retryDelays;
        private OnDuplicate onDuplicate;

        private Builder(String topic, String body) {
            this.topic = topic;
            this.body = body;
        }

        public Builder delay(Duration delay) {
            this.delay = delay;
            return this;
        }

        public Builder deliverAt(Instant deliverAt) {
            this.deliverAt = deliverAt;
            return this;
        }

        public Builder bizKey(String bizKey) {
            this.bizKey = bizKey;
            return this;
        }

        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        public Builder ttr(Duration ttr) {
            this.ttr = ttr;
            return this;
        }

        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        public Builder retryDelays(List<Duration> retryDelays) {
            this.retryDelays = retryDelays;
            return this;
        }

        public Builder onDuplicate(OnDuplicate onDuplicate) {
            this.onDuplicate = onDuplicate;
            return this;
        }

        public PushMessage build() {
            return new PushMessage(topic, body, delay, deliverAt, bizKey, priority, ttr, maxAttempts, retryDelays,
                    onDuplicate);
        }
    }
}
