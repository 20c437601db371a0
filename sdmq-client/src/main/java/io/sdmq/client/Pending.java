package io.sdmq.client;

import java.util.concurrent.CompletableFuture;

/** A pushed message waiting in the buffer or in a batch: its future completes with its id or its own failure. */
record Pending(PushMessage message, CompletableFuture<String> id, long acceptedNanos) {
}
