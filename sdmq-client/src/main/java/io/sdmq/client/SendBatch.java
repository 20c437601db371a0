package io.sdmq.client;

import io.sdmq.client.HttpCalls.Call;

import java.util.List;

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

    /** Returns when every message of {@code batch} has its outcome, on the calling thread; never throws. */
    void send(List<Pending> batch) {
        counters.batch(batch.size());
        try {
            List<String> ids = Wire.strings(http.call(Call.post("/push/batch",
                    wire.messages(batch.stream().map(Pending::message).toList()))));
            if (ids.size() != batch.size()) {
                throw new IllegalStateException("/push/batch answered " + ids.size() + " ids for " + batch.size()
                        + " messages");
            }
            for (int i = 0; i < ids.size(); i++) {
                batch.get(i).id().complete(ids.get(i));
            }
        } catch (SdmqClientException.InvalidRequest refused) {
            oneByOne(batch);
        } catch (RuntimeException failure) {
            batch.forEach(p -> p.id().completeExceptionally(failure));
        }
    }

    private void oneByOne(List<Pending> batch) {
        for (Pending p : batch) {
            try {
                p.id().complete(Wire.text(http.call(Call.post("/push", wire.message(p.message())))));
            } catch (RuntimeException failure) {
                p.id().completeExceptionally(failure);
            }
        }
    }
}
