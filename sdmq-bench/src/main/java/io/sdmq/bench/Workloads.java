package io.sdmq.bench;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The workloads of the benchmark issue, each against a running server and answering one result. */
final class Workloads {
    static final int BODY_SIZE = 200;
    private static final int BATCH = 1_000;
    private static final long DAY_MS = 86_400_000L;

    private final Target target;
    private final WorkloadOptions options;
    private final String tag = Long.toString(System.currentTimeMillis(), 36);
    private final Delivery delivery;
    private final ProcessCpu cpu;

    Workloads(Target target, Options options) {
        this.target = target;
        this.options = WorkloadOptions.of(options);
        this.cpu = ProcessCpu.of(options);
        this.delivery = new Delivery(target, this.options, tag);
    }

    /** W1 burst: one push per request, delays uniform 2–10 s. */
    Map<String, Object> burst(String workload, int messages) throws Exception {
        return delivery.run(workload, messages, 1, 0, now -> now + delay(2_000, 10_000)).result();
    }

    /** W2 batch: /push/batch with 1 000 messages per call, delays uniform 2–10 s. */
    Map<String, Object> batch(int messages) throws Exception {
        return delivery.run("W2", messages, BATCH, 0, now -> now + delay(2_000, 10_000)).result();
    }

    /** W3 steady: one push per request at a fixed offered rate for a duration, delays uniform 1–5 s. */
    Map<String, Object> steady(int rate, int seconds) throws Exception {
        Map<String, Object> result = delivery.run("W3", rate * seconds, 1, rate, now -> now + delay(1_000, 5_000))
                .result();
        result.put("targetRate", rate);
        return result;
    }

    /**
     * W4 thundering herd: every message due within one wall-clock second, pushed with /push/batch ahead of it;
     * measures how long after the end of that second the last message arrived.
     */
    Map<String, Object> herd(int messages, int leadSeconds) throws Exception {
        long second = (System.currentTimeMillis() / 1_000 + leadSeconds) * 1_000;
        Delivery.Run run = delivery.run("W4", messages, BATCH, 0, now -> second + uniform(0, 999));
        Map<String, Object> result = run.result();
        result.put("dueSecondEpochMs", second);
        result.put("pushedBeforeDueSecond", run.pushEndMillis() < second);
        long last = run.tracker().lastFirstReceiveMicros();
        result.put("lastDeliveryAfterDueSecondMs", last == 0 ? null : (last / 1_000) - (second + 1_000));
        return result;
    }

    /**
     * W8 push delivery: messages pushed with /push/batch, due uniformly over {@code spreadSeconds} that begin
     * {@code leadSeconds} ahead, delivered by the server to a receiver in this process (--sink), or taken by consumers
     * that poll (no --sink), for the comparison. The delivery rate is the messages received over the time from the
     * first due one to the last received.
     */
    Map<String, Object> sink(int messages, int spreadSeconds, int leadSeconds) throws Exception {
        long first = System.currentTimeMillis() + leadSeconds * 1_000L;
        Delivery.Run run = delivery.run("W8", messages, BATCH, 0, now -> first + uniform(0, spreadSeconds * 1_000L));
        Map<String, Object> result = run.result();
        result.put("spreadSeconds", spreadSeconds);
        result.put("pushedBeforeFirstDue", run.pushEndMillis() < first);
        long last = run.tracker().lastFirstReceiveMicros() / 1_000;
        result.put("deliveryRate", last <= first ? null : Math.round((Integer) result.get("delivered") * 1_000.0
                / (last - first)));
        return result;
    }

    /**
     * W5 scale: W1 again after preloading messages due tomorrow; also the Redis bytes per pending message, when the
     * target keeps its messages in Redis.
     */
    Map<String, Object> scale(int messages, int preload) throws Exception {
        Map<String, Object> preloaded = new LinkedHashMap<>();
        String keys = target.redisKeys();
        long before = redisBytes(keys);
        preload(preload, preloaded);
        long after = redisBytes(keys);
        Map<String, Object> result = burst("W5", messages);
        result.putAll(preloaded);
        int count = (Integer) preloaded.get("preloaded");
        result.put("redisBytesPerPending", keys == null || count == 0 ? null
                : Math.round((double) (after - before) / count));
        return result;
    }

    /**
     * The raw limits of the server's Redis and of the MariaDB server at jdbcServer, measured with count of each, the
     * concurrent commits from {@code writers} connections (W1's producers).
     */
    Map<String, Object> raw(int count, int writers, String jdbcServer) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        RawLimits.redisZadd(options.redisUrl(), options.prefix(), count, result);
        RawLimits.redisLayoutFloor(options.redisUrl(), options.prefix(), count, result);
        MariadbLimits.measure(jdbcServer, options.dbUser(), options.dbPassword(), count, writers, result);
        return result;
    }

    /**
     * W6 restore: optionally preloads messages due tomorrow, deletes the server's bucket keys from Redis (SCAN and
     * DEL of the keys matching "prefix:{b*", which leaves the worker lease alone), calls /reStore and times it.
     * Lost is the scheduled count before the flush minus the count after the restore.
     */
    Map<String, Object> restore(int preload) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", "W6");
        if (preload > 0) {
            preload(preload, result);
        }
        try (Resp redis = new Resp(options.redisUrl())) {
            long pendingBefore = pending(redis);
            int keysDeleted = deleteBucketKeys(redis);
            long pendingAfterFlush = pending(redis);
            long start = System.nanoTime();
            JsonNode counts = sdmq().restore(Duration.ofMinutes(10));
            double seconds = (System.nanoTime() - start) / 1e9;
            long pendingAfter = pending(redis);
            long restored = counts.path("restored").asLong();
            long lost = Math.max(0, pendingBefore - pendingAfter);
            result.put("pendingBefore", pendingBefore);
            result.put("keysDeleted", keysDeleted);
            result.put("pendingAfterFlush", pendingAfterFlush);
            result.put("scanned", counts.path("scanned").asLong());
            result.put("restored", restored);
            result.put("alreadyPresent", counts.path("alreadyPresent").asLong());
            result.put("expired", counts.path("expired").asLong());
            result.put("gone", counts.path("gone").asLong());
            result.put("pendingAfter", pendingAfter);
            result.put("lost", lost);
            result.put("restoreSeconds", round3(seconds));
            result.put("restoreRate", Math.round(restored / seconds));
            result.put("valid", lost == 0 && pendingAfterFlush == 0);
        }
        return result;
    }

    /** Deletes the server's bucket keys in one pipeline; answers how many there were. */
    private int deleteBucketKeys(Resp redis) throws IOException {
        List<String> keys = redis.keys(sdmq().redisKeys());
        for (String key : keys) {
            redis.send("DEL", key);
        }
        redis.flush();
        for (int i = 0; i < keys.size(); i++) {
            redis.read();
        }
        return keys.size();
    }

    /** W7: an operator's bulk requeue of count DEAD messages (see {@link BulkRequeue}). */
    Map<String, Object> bulkRequeue(int count) throws Exception {
        return BulkRequeue.run(options, cpu, count, tag);
    }

    /** Pushes count messages due tomorrow, 1 000 per call, to a topic nobody consumes. */
    private void preload(int count, Map<String, Object> result) throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        AtomicLong errors = new AtomicLong();
        Producers producers = new Producers(target, "bench-preload-" + tag);
        long start = System.nanoTime();
        producers.unpaced(options.producers(), count, BATCH, now -> now + DAY_MS + uniform(0, 3_600_000),
                (call, from, to, ok, nanos) -> {
                    if (ok) {
                        accepted.addAndGet(to - from);
                    } else {
                        errors.addAndGet(to - from);
                    }
                });
        double seconds = (System.nanoTime() - start) / 1e9;
        result.put("preloaded", accepted.get());
        result.put("preloadErrors", errors.get());
        result.put("preloadSeconds", round3(seconds));
        result.put("preloadRate", Math.round(accepted.get() / seconds));
        result.put("settleSeconds", round3(target.settle()));
    }

    /** The target of W6, whose restore only sdmq has. */
    private SdmqHttp sdmq() {
        if (target instanceof SdmqHttp client) {
            return client;
        }
        throw new IllegalArgumentException("this workload drives sdmq only; peers run W1 to W5");
    }

    /** Messages scheduled in the server's buckets: the sum of the delay and cold sets' sizes. */
    private long pending(Resp redis) throws IOException {
        long total = 0;
        for (String key : redis.keys(sdmq().redisKeys())) {
            if (key.endsWith(":delay") || key.endsWith(":cold")) {
                total += (Long) redis.call("ZCARD", key);
            }
        }
        return total;
    }

    /**
     * Bytes Redis reports for all keys matching pattern (MEMORY USAGE, every element counted); 0 without a pattern,
     * for a target that keeps nothing in Redis.
     */
    private long redisBytes(String pattern) throws IOException {
        if (pattern == null) {
            return 0;
        }
        long total = 0;
        try (Resp redis = new Resp(options.redisUrl())) {
            for (String key : redis.keys(pattern)) {
                Object bytes = redis.call("MEMORY", "USAGE", key, "SAMPLES", "0");
                total += bytes == null ? 0 : (Long) bytes;
            }
        }
        return total;
    }

    /** A delay of W1, W2, W3 or W5: uniform in [low, high] ms, both times --delay-scale. */
    private long delay(long low, long high) {
        return uniform(Math.round(low * options.delayScale()), Math.round(high * options.delayScale()));
    }

    /** A uniform random number in [low, high]. */
    private static long uniform(long low, long high) {
        return ThreadLocalRandom.current().nextLong(low, high + 1);
    }

    static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
