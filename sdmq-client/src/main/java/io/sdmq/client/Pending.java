package io.sdmq.client;

import java.util.concurrent.CompletableFuture;

/**
 * A pushed message waiting in the buffer or in a batch: its future completes with its id or its own failure.
 * {@code waiting} says a caller of {@code push} is blocked on it, so its batch need not linger once nothing is in
 * flight.
 */
record Pending(PushMessage message, CompletableFuture<String> id, long acceptedNanos, boolean waiting) {
}
