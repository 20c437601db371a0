package io.sdmq.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the delivery workloads push to and consume from: the sdmq server over HTTP, or one of the delay queues the
 * benchmark issue compares it with ({@link Peers}), driven the same way from the same process.
 */
interface Target extends AutoCloseable {
    /** A message to push: its body (which carries its sequence number and due time) and its due time, epoch ms. */
    record Outgoing(String body, long deliverAt) {
    }

    /** A message as a consumer received it, with the due time the target reports for it. */
    record Delivered(String id, String body, long dueTime) {
    }

    /** Pushes messages to topic in one call (a single push for one message); true when all were acknowledged. */
    boolean push(String topic, List<Outgoing> messages) throws IOException;

    /** Pushes one message without waiting; completes with true when it was acknowledged. */
    CompletableFuture<Boolean> pushAsync(String topic, Outgoing message);

    /** Waits up to timeoutMs for up to count due messages of topic and takes them. */
    List<Delivered> get(String topic, int timeoutMs, int count) throws IOException;

    /**
     * Acknowledges taken messages without waiting; completes with how many were not acknowledged. A target whose
     * consumers take a message for good (the peers) has nothing to do.
     */
    default CompletableFuture<Integer> finish(List<String> ids) {
        return CompletableFuture.completedFuture(0);
    }

    /** Sends the acknowledgements a consumer thread still holds back, when it stops (see {@link ClientTarget}). */
    default void finishPending() {
    }

    /** HTTP requests the server has answered since it started; -1 when the target is not an sdmq server. */
    default long serverCalls() throws IOException {
        return -1;
    }

    /** The SCAN pattern of the Redis keys that hold this target's messages; null when it keeps none in Redis. */
    default String redisKeys() {
        return null;
    }

    /** Waits until the target has written what it queued before; answers the seconds waited. */
    default double settle() throws Exception {
        return 0;
    }

    @Override
    default void close() throws Exception {
    }
}
