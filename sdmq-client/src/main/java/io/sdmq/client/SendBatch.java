package io.sdmq.client;

import io.sdmq.client.HttpCalls.Call;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Sends one batch of pushed messages, all of one {@code onDuplicate}, as one {@code /push/batch} call and completes
 * each message's future with its id. The server refuses a batch with one bad message whole (400) and stores none of
 * it, so a refused batch is sent again one message at a time with {@code /push}, one after the other, and each message
 * gets its own outcome: one bad message never fails the others.
 */
final class SendBatch {
    private final HttpCalls http;
    private final Wire wire;
    private final Counters counters;

    SendBatch(HttpCalls http, Wire wire, Counters counters) {
        this.http = http;
        this.wire = wire;
        this.counters = counters;
    }

    /** Completes when every message of {@code batch} has its outcome; never fails. */
    CompletableFuture<Void> send(List<Pending> batch) {
        counters.batch(batch.size());
        Call call = Call.post("/push/batch", wire.messages(batch.stream().map(Pending::message).toList()));
        return http.send(call).handle((data, failure) -> {
            if (failure == null) {
                return completeAll(batch, Wire.strings(data));
            }
            Throwable cause = unwrap(failure);
            if (cause instanceof SdmqClientException.InvalidRequest) {
                return oneByOne(batch);
            }
            batch.forEach(p -> p.id().completeExceptionally(cause));
            return CompletableFuture.<Void>completedFuture(null);
        }).thenCompose(done -> done).whenComplete((done, bug) -> {
            if (bug != null) {
                batch.forEach(p -> p.id().completeExceptionally(unwrap(bug)));
            }
        }).exceptionally(bug -> null);
    }

    private static CompletableFuture<Void> completeAll(List<Pending> batch, List<String> ids) {
        if (ids.size() != batch.size()) {
            IllegalStateException wrong = new IllegalStateException("/push/batch answered " + ids.size()
                    + " ids for " + batch.size() + " messages");
            batch.forEach(p -> p.id().completeExceptionally(wrong));
        } else {
            for (int i = 0; i < ids.size(); i++) {
                batch.get(i).id().complete(ids.get(i));
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<Void> oneByOne(List<Pending> batch) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (Pending p : batch) {
            chain = chain.thenCompose(previous -> http.send(Call.post("/push", wire.message(p.message())))
                    .handle((data, failure) -> failure == null ? p.id().complete(Wire.text(data))
                            : p.id().completeExceptionally(unwrap(failure)))
                    .thenApply(completed -> (Void) null));
        }
        return chain;
    }

    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
