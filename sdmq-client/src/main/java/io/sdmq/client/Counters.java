package io.sdmq.client;

import java.util.concurrent.atomic.LongAdder;

/** The counts behind {@link ClientStats}, added to by many threads. */
final class Counters {
    private final LongAdder requests = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder batchedMessages = new LongAdder();

    void request(boolean retry) {
        requests.increment();
        if (retry) {
            retries.increment();
        }
    }

    void batch(int messages) {
        batches.increment();
        batchedMessages.add(messages);
    }

    ClientStats snapshot() {
        return new ClientStats(requests.sum(), retries.sum(), batches.sum(), batchedMessages.sum());
    }
}
