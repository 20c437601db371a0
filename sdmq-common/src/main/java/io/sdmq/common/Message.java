package io.sdmq.common;

import java.util.List;
import java.util.Objects;

/**
 * A message as the engine keeps it. Times are epoch milliseconds from the server clock.
 *
 * @param id          server-assigned snowflake id
 * @param topic       the queue consumers pop from
 * @param bizKey      the producer's business key, unique per topic; may be null
 * @param body        the payload, opaque to sdmq
 * @param priority    0..999, an offset in ms added to the score; lower goes first
 * @param createTime  when the server accepted it
 * @param dueTime     when it becomes deliverable ({@code createTime + delay}, or {@code deliverAt})
 * @param ttrMs       time-to-run after a pop before it is delivered again
 * @param maxAttempts deliveries before it is dead
 * @param retryDelays backoff before each redelivery, in ms; null means the server default
 * @param attempts    deliveries so far
 */
public record Message(long id, String topic, String bizKey, String body, int priority, long createTime,
                      long dueTime, long ttrMs, int maxAttempts, List<Long> retryDelays, int attempts) {

    public Message {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        retryDelays = retryDelays == null ? null : List.copyOf(retryDelays);
    }

    /** The order key in a bucket: due time plus the priority offset. */
    public long score() {
        return dueTime + priority;
    }

    public long delayMs() {
        return dueTime - createTime;
    }

    public Message withAttempts(int newAttempts) {
        return new Message(id, topic, bizKey, body, priority, createTime, dueTime, ttrMs, maxAttempts,
                retryDelays, newAttempts);
    }

    public Message withDueTime(long newDueTime) {
        return new Message(id, topic, bizKey, body, priority, createTime, newDueTime, ttrMs, maxAttempts,
                retryDelays, attempts);
    }
}
