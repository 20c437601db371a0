package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A write queued for MySQL: new messages, or a transition, or neither (a flush, done once everything queued before it
 * is).
 *
 * @param done     completed with the ids holding the messages' keys (empty for the others) once committed; null for a
 *                 transition nobody waits for
 * @param queuedAt when it was queued, on the writer's ticker
 */
record PendingWrite(List<Message> messages, Transition transition, CompletableFuture<List<Long>> done,
                    long queuedAt) {

    boolean isFlush() {
        return messages == null && transition == null;
    }
}
