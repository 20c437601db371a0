package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * What test consumers received: how often each id, when, which ones before their due time, and how late. Consumers
 * long-poll, acknowledge on other threads and poll again at once, as a real consumer would. A {@link #tolerant()}
 * one also survives a server or Redis going away: a poll that fails or answers other than 200 is retried after a
 * short pause, and a finish that fails is counted in {@link #failedFinishes()} (its message comes back later).
 */
final class Deliveries implements AutoCloseable {
    private static final long RETRY_PAUSE_MS = 100;

    private final boolean tolerant;
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final Queue<Delivery> received = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> finishedAt = new ConcurrentHashMap<>();
    private final AtomicInteger failedFinishes = new AtomicInteger();
    private final AtomicInteger failedPolls = new AtomicInteger();
    private final List<String> early = new CopyOnWriteArrayList<>();
    private final List<Long> lateness = new CopyOnWriteArrayList<>();
    private final List<Future<Integer>> finishes = new CopyOnWriteArrayList<>();
    private final List<Future<?>> consumers = new ArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** Consumers for a healthy server: a failed poll ends the consumer, {@link #stopAndCheckFinishes()} says so. */
    Deliveries() {
        this(false);
    }

    private Deliveries(boolean tolerant) {
        this.tolerant = tolerant;
    }

    /** Consumers for fault tests: they retry failed polls and count failed finishes. */
    static Deliveries tolerant() {
        return new Deliveries(true);
    }

    /** Starts a consumer of {@code topic} on {@code server} that finishes every message it gets. */
    void consume(RunningServer server, String topic) {
        consume(server.http(), topic);
    }

    /** Starts a consumer of {@code topic} on the server behind {@code server} that finishes every message it gets. */
    void consume(HttpApi server, String topic) {
        consume(() -> server, topic);
    }

    /** The same on whichever server {@code server} names at each poll, e.g. the one that replaced a killed one. */
    void consume(Supplier<HttpApi> server, String topic) {
        consumers.add(threads.submit(() -> {
            while (!stopped.get()) {
                HttpApi api = server.get();
                long polledAt = System.currentTimeMillis();
                Reply reply = poll(api, topic);
                if (reply == null) {
                    failedPolls.incrementAndGet();
                    pause();
                    continue;
                }
                long now = System.currentTimeMillis();
                for (JsonNode m : reply.data()) {
                    record(m, polledAt, now);
                    String id = m.get("id").asString();
                    finishes.add(threads.submit(() -> finish(api, id)));
                }
            }
        }));
    }

    /**
     * Starts a consumer of {@code topic} on {@code server} in one call per batch ({@code POST /get/{topic}}): each call
     * finishes the batch the previous one got, as the Java client's consumers do; on {@link #stop()} it finishes its
     * last batch with {@code POST /finish}. A call answered other than 200 ends it, {@link #stop()} says so.
     */
    void consumeInBatches(RunningServer server, String topic) {
        HttpApi api = server.http();
        consumers.add(threads.submit(() -> {
            List<String> toFinish = List.of();
            while (!stopped.get()) {
                long polledAt = System.currentTimeMillis();
                Reply reply = api.post("/get/" + topic + "?timeout=500&count=100", jsonArray(toFinish));
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                long now = System.currentTimeMillis();
                finished(reply.data().get("finished"), now);
                List<String> got = new ArrayList<>();
                for (JsonNode m : reply.data().get("messages")) {
                    record(m, polledAt, now);
                    got.add(m.get("id").asString());
                }
                toFinish = got;
            }
            if (!toFinish.isEmpty()) {
                Reply reply = api.post("/finish", jsonArray(toFinish));
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                finished(reply.data(), System.currentTimeMillis());
            }
            return null;
        }));
    }

    /** Records the per-id outcomes of a batch finish answered at {@code now}. */
    private void finished(JsonNode results, long now) {
        for (JsonNode result : results) {
            if (result.get("code").asInt() == 200) {
                finishedAt.merge(result.get("id").asString(), now, Math::min);
            } else {
                failedFinishes.incrementAndGet();
            }
        }
    }

    private static String jsonArray(List<String> ids) {
        return ids.stream().map(id -> '"' + id + '"').collect(Collectors.joining(",", "[", "]"));
    }

    /** A 200 reply; null when a tolerant consumer's poll failed or answered otherwise. */
    private Reply poll(HttpApi api, String topic) {
        String path = "/get/" + topic + "?timeout=500&count=50";
        if (!tolerant) {
            return api.get(path);
        }
        try {
            Reply reply = api.get(path);
            return reply.status() == 200 ? reply : null;
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /** Sends the finish once; its status, or -1 when a tolerant consumer's request failed. */
    private int finish(HttpApi api, String id) {
        int status;
        try {
            status = api.postForm("/finish?jobId=" + id).status();
        } catch (IllegalStateException e) {
            if (!tolerant) {
                throw e;
            }
            status = -1;
        }
        if (status == 200) {
            finishedAt.merge(id, System.currentTimeMillis(), Math::min);
        } else {
            failedFinishes.incrementAndGet();
        }
        return status;
    }

    private void record(JsonNode m, long polledAt, long now) {
        String id = m.get("id").asString();
        long due = m.get("dueTime").asLong();
        if (due > now) {
            early.add(id);
        }
        lateness.add(now - due);
        counts.merge(id, 1, Integer::sum);
        received.add(new Delivery(id, polledAt, now, m.get("attempts").asInt()));
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    /** Every delivery so far, in the order they were recorded. */
    List<Delivery> received() {
        return List.copyOf(received);
    }

    /** For each id whose finish was answered 200: when the (first) 200 arrived, epoch ms. */
    Map<String, Long> finishedAt() {
        return Map.copyOf(finishedAt);
    }

    /** Finishes answered other than 200, or that failed. */
    int failedFinishes() {
        return failedFinishes.get();
    }

    /** Polls that failed or answered other than 200 (tolerant consumers only). */
    int failedPolls() {
        return failedPolls.get();
    }

    /** Deliveries beyond the first of each id. */
    int duplicates() {
        return counts.values().stream().mapToInt(n -> n - 1).sum();
    }

    /** Waits until every acknowledgement sent so far was answered, and checks each was 200. */
    void awaitFinishes() throws Exception {
        for (Future<Integer> finish : List.copyOf(finishes)) {
            assertThat(finish.get(10, TimeUnit.SECONDS)).isEqualTo(200);
        }
    }

    /**
     * Waits until every id in {@code ids} was delivered at least once; when one is still missing after
     * {@code atMost}, fails with the rows of the first missing ones in {@code db}.
     */
    void awaitDelivered(Set<String> ids, Duration atMost, DataSource db) throws Exception {
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(500)).until(() -> counts.keySet().containsAll(ids));
        } catch (ConditionTimeoutException e) {
            List<String> missing = ids.stream().filter(id -> !counts.containsKey(id)).sorted().toList();
            fail(missing.size() + " of " + ids.size() + " acknowledged messages were never delivered; the first:\n"
                    + MessageHistory.of(db, missing.subList(0, Math.min(20, missing.size()))));
        }
    }

    /** Stops the consumers and waits until every acknowledgement sent was answered, whatever the answer. */
    void stop() throws Exception {
        stopped.set(true);
        for (Future<?> consumer : consumers) {
            consumer.get(10, TimeUnit.SECONDS);
        }
        for (Future<Integer> finish : finishes) {
            finish.get(10, TimeUnit.SECONDS);
        }
    }

    /** Stops the consumers and checks every acknowledgement was answered 200. */
    void stopAndCheckFinishes() throws Exception {
        stop();
        for (Future<Integer> finish : finishes) {
            assertThat(finish.get()).isEqualTo(200);
        }
        assertThat(failedFinishes.get()).as("finishes answered other than 200").isZero();
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

    /**
     * One message received by a consumer: its id, when the poll that got it was sent and when its reply arrived
     * (epoch ms), and its attempt number.
     */
    record Delivery(String id, long polledAt, long at, int attempts) {
    }
}
