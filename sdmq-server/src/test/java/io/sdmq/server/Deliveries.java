package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What test consumers received: how often each id, which ones before their due time, and how late. Consumers
 * long-poll, acknowledge on other threads and poll again at once, as a real consumer would.
 */
final class Deliveries implements AutoCloseable {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final List<String> early = new CopyOnWriteArrayList<>();
    private final List<Long> lateness = new CopyOnWriteArrayList<>();
    private final List<Future<Integer>> finishes = new CopyOnWriteArrayList<>();
    private final List<Future<?>> consumers = new ArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** Starts a consumer of {@code topic} on {@code server} that finishes every message it gets. */
    void consume(RunningServer server, String topic) {
        consume(server.http(), topic);
    }

    /** Starts a consumer of {@code topic} on the server behind {@code server} that finishes every message it gets. */
    void consume(HttpApi server, String topic) {
        consumers.add(threads.submit(() -> {
            while (!stopped.get()) {
                Reply reply = server.get("/get/" + topic + "?timeout=500&count=50");
                long now = System.currentTimeMillis();
                for (JsonNode m : reply.data()) {
                    record(m, now);
                    String id = m.get("id").asString();
                    finishes.add(threads.submit(() -> server.postForm("/finish?jobId=" + id).status()));
                }
            }
        }));
    }

    private void record(JsonNode m, long now) {
        String id = m.get("id").asString();
        long due = m.get("dueTime").asLong();
        if (due > now) {
            early.add(id);
        }
        lateness.add(now - due);
        counts.merge(id, 1, Integer::sum);
    }

    Set<String> ids() {
        return counts.keySet();
    }

    Map<String, Integer> counts() {
        return counts;
    }

    List<String> early() {
        return early;
    }

    /** Waits until every acknowledgement sent so far was answered, and checks each was 200. */
    void awaitFinishes() throws Exception {
        for (Future<Integer> finish : List.copyOf(finishes)) {
            assertThat(finish.get(10, TimeUnit.SECONDS)).isEqualTo(200);
        }
    }

    /** Stops the consumers and checks every acknowledgement was answered 200. */
    void stopAndCheckFinishes() throws Exception {
        stopped.set(true);
        for (Future<?> consumer : consumers) {
            consumer.get(10, TimeUnit.SECONDS);
        }
        for (Future<Integer> finish : finishes) {
            assertThat(finish.get(10, TimeUnit.SECONDS)).isEqualTo(200);
        }
    }

    /** Information for the reader of the test log; timing is measured in benchmarks, never asserted in tests. */
    void printLateness() {
        List<Long> sorted = lateness.stream().sorted().toList();
        if (!sorted.isEmpty()) {
            System.out.printf("lateness over %d deliveries: p50 %d ms, p99 %d ms, max %d ms%n", sorted.size(),
                    sorted.get(sorted.size() / 2), sorted.get(sorted.size() * 99 / 100), sorted.get(sorted.size() - 1));
        }
    }

    @Override
    public void close() {
        stopped.set(true);
        threads.shutdownNow();
    }
}
