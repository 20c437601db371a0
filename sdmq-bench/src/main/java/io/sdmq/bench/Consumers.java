package io.sdmq.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Consumer threads of one topic. Each long-polls for up to 100 messages for up to 1 s (on sdmq
 * {@code /get/{topic}?timeout=1000&count=100}), records the receive time of the reply, and acknowledges the batch in
 * one call ({@code POST /finish}); it keeps at most one acknowledgement in flight, so a slow one does not hold up the
 * next poll but the consumer never runs ahead of its acknowledgements.
 */
final class Consumers {
    static final int POLL_TIMEOUT_MS = 1_000;
    static final int POLL_COUNT = 100;

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;

    Consumers(Target client, String topic, int consumers, Tracker tracker) {
        for (int i = 0; i < consumers; i++) {
            Thread thread = new Thread(() -> consume(client, topic, tracker), "consumer-" + i);
            threads.add(thread);
            thread.start();
        }
    }

    private void consume(Target client, String topic, Tracker tracker) {
        CompletableFuture<Integer> lastFinish = CompletableFuture.completedFuture(0);
        int lastIds = 0;
        while (!stop) {
            List<Target.Delivered> batch;
            try {
                batch = client.get(topic, POLL_TIMEOUT_MS, POLL_COUNT);
            } catch (Exception e) {
                tracker.getFailed();
                pause();
                continue;
            }
            tracker.received(batch, Clock.micros());
            if (batch.isEmpty()) {
                continue;
            }
            List<String> ids = new ArrayList<>(batch.size());
            batch.forEach(m -> ids.add(m.id()));
            awaitFinish(lastFinish, tracker, lastIds);
            long sent = System.nanoTime();
            lastFinish = client.finish(ids).whenComplete((failed, e) -> tracker.finishTook(ids.size(),
                    System.nanoTime() - sent));
            lastIds = ids.size();
        }
        client.finishPending();
        awaitFinish(lastFinish, tracker, lastIds);
    }

    /** Waits for a finish call and counts the ids it did not finish (all of them if the call failed). */
    private static void awaitFinish(CompletableFuture<Integer> finish, Tracker tracker, int ids) {
        try {
            tracker.finishFailed(finish.join());
        } catch (RuntimeException e) {
            tracker.finishFailed(ids);
        }
    }

    /**
     * Waits until every acknowledged message was received, or nothing new arrived for idleMs once the latest due
     * time (epoch ms) has passed, or maxMs after that due time; then stops the consumers. A slow but moving
     * consumer is waited for; what never arrives is counted as lost.
     */
    void drain(Tracker tracker, long latestDue, long idleMs, long maxMs) throws InterruptedException {
        int seen = -1;
        long lastProgress = System.currentTimeMillis();
        while (!tracker.allDelivered()) {
            long now = System.currentTimeMillis();
            int delivered = tracker.distinctDelivered();
            if (delivered != seen) {
                seen = delivered;
                lastProgress = now;
            }
            if (now > latestDue && now - lastProgress > idleMs || now > latestDue + maxMs) {
                break;
            }
            Thread.sleep(20);
        }
        stop = true;
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
