package io.sdmq.bench;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** The workloads of the benchmark issue, each against a running server and answering one result. */
final class Workloads {
    static final int BODY_SIZE = 200;
    private static final int BATCH = 1_000;
    private static final long DAY_MS = 86_400_000L;

    private final Target target;
    private final int producers;
    private final int consumers;
    private final int inflight;
    private final long idleMs;
    private final long maxDrainMs;
    private final String redisUrl;
    private final String prefix;
    private final String serverDb;
    private final String dbUser;
    private final String dbPassword;
    private final String tag = Long.toString(System.currentTimeMillis(), 36);

    Workloads(Target target, Options options) {
        this.target = target;
        this.producers = options.integer("producers", 4);
        this.consumers = options.integer("consumers", 4);
        this.inflight = options.integer("inflight", 256);
        this.idleMs = options.integer("drain", 30) * 1_000L;
        this.maxDrainMs = options.integer("max-drain", 600) * 1_000L;
        this.redisUrl = options.text("redis", "redis://127.0.0.1:6379");
        this.prefix = options.text("prefix", "sdmq");
        this.serverDb = options.text("server-db", "");
        this.dbUser = options.text("db-user", "root");
        this.dbPassword = options.text("db-password", "");
    }

    /** When a message pushed at now (epoch ms) is due. */
    interface DueTime {
        long of(long now);
    }

    /** What one delivery run measured, and when its last push was answered (epoch ms). */
    record Run(Map<String, Object> result, Tracker tracker, long pushEndMillis) {
    }

    /** W1 burst: one push per request, delays uniform 2–10 s. */
    Map<String, Object> burst(String workload, int messages) throws Exception {
        return deliver(workload, messages, 1, 0, now -> now + uniform(2_000, 10_000)).result();
    }

    /** W2 batch: /push/batch with 1 000 messages per call, delays uniform 2–10 s. */
    Map<String, Object> batch(int messages) throws Exception {
        return deliver("W2", messages, BATCH, 0, now -> now + uniform(2_000, 10_000)).result();
    }

    /** W3 steady: one push per request at a fixed offered rate for a duration, delays uniform 1–5 s. */
    Map<String, Object> steady(int rate, int seconds) throws Exception {
        Map<String, Object> result = deliver("W3", rate * seconds, 1, rate, now -> now + uniform(1_000, 5_000))
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
        Run run = deliver("W4", messages, BATCH, 0, now -> second + uniform(0, 999));
        Map<String, Object> result = run.result();
        result.put("dueSecondEpochMs", second);
        result.put("pushedBeforeDueSecond", run.pushEndMillis() < second);
        long last = run.tracker().lastFirstReceiveMicros();
        result.put("lastDeliveryAfterDueSecondMs", last == 0 ? null : (last / 1_000) - (second + 1_000));
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
        RawLimits.redisZadd(redisUrl, prefix, count, result);
        RawLimits.redisLayoutFloor(redisUrl, prefix, count, result);
        RawLimits.mariadbInsert(jdbcServer, dbUser, dbPassword, count, writers, result);
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
        try (Resp redis = new Resp(redisUrl)) {
            long pendingBefore = pending(redis);
            List<String> keys = redis.keys(sdmq().redisKeys());
            for (String key : keys) {
                redis.send("DEL", key);
            }
            redis.flush();
            for (int i = 0; i < keys.size(); i++) {
                redis.read();
            }
            long pendingAfterFlush = pending(redis);
            long start = System.nanoTime();
            JsonNode counts = sdmq().restore(Duration.ofMinutes(10));
            double seconds = (System.nanoTime() - start) / 1e9;
            long pendingAfter = pending(redis);
            long restored = counts.path("restored").asLong();
            long lost = Math.max(0, pendingBefore - pendingAfter);
            result.put("pendingBefore", pendingBefore);
            result.put("keysDeleted", keys.size());
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

    /**
     * Pushes messages while consumers take them, waits until all were received (see {@link Consumers#drain}),
     * and counts what happened. Unpaced (rate 0): the producer threads each send one call at a time, batch
     * messages per call. Paced (W3, one message per call): one thread sends call i at start + i / rate without
     * waiting for replies, at most inflight at once, so a slow reply does not lower the offered rate.
     */
    private Run deliver(String workload, int messages, int batch, double rate, DueTime due) throws Exception {
        String topic = "bench-" + workload + "-" + tag;
        Tracker tracker = new Tracker(messages);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", workload);
        result.put("messages", messages);
        result.put(rate > 0 ? "inflightCap" : "producers", rate > 0 ? inflight : producers);
        result.put("consumers", consumers);
        result.put("perCall", batch);
        // what an earlier workload left in the server's MySQL queue would otherwise be written during this one
        result.put("startSettleSeconds", round3(target.settle()));
        long started = System.nanoTime();
        Consumers consuming = new Consumers(target, topic, consumers, tracker);
        AtomicLong latestDue = new AtomicLong();
        AtomicLong pushErrors = new AtomicLong();
        DueTime tracked = now -> {
            long deliverAt = due.of(now);
            latestDue.accumulateAndGet(deliverAt, Math::max);
            return deliverAt;
        };
        int calls = (messages + batch - 1) / batch;
        long[] callNanos = new long[calls];
        long pushStart = System.nanoTime();
        if (rate > 0 && batch == 1) {
            Semaphore slots = new Semaphore(inflight);
            for (int call = 0; call < calls; call++) {
                parkUntil(pushStart + (long) (call * 1e9 / rate));
                slots.acquire();
                int seq = call;
                long sent = System.nanoTime();
                target.pushAsync(topic, outgoing(call, call + 1, tracked).get(0)).whenComplete((ok, failure) -> {
                    callNanos[seq] = System.nanoTime() - sent;
                    if (failure == null && ok) {
                        tracker.acknowledged(seq, seq + 1);
                    } else {
                        pushErrors.incrementAndGet();
                    }
                    slots.release();
                });
            }
            slots.acquire(inflight);
        } else {
            AtomicInteger nextCall = new AtomicInteger();
            parallel(producers, () -> {
                int call;
                while ((call = nextCall.getAndIncrement()) < calls) {
                    int from = call * batch;
                    int to = Math.min(messages, from + batch);
                    List<Target.Outgoing> outgoing = outgoing(from, to, tracked);
                    long sent = System.nanoTime();
                    boolean ok;
                    try {
                        ok = target.push(topic, outgoing);
                    } catch (IOException e) {
                        ok = false;
                    }
                    callNanos[call] = System.nanoTime() - sent;
                    if (ok) {
                        tracker.acknowledged(from, to);
                    } else {
                        pushErrors.addAndGet(to - from);
                    }
                }
            });
        }
        double pushSeconds = (System.nanoTime() - pushStart) / 1e9;
        long pushEnd = System.currentTimeMillis();
        tracker.pushingDone();
        consuming.drain(tracker, latestDue.get(), idleMs, maxDrainMs);
        tracker.summarise(result);
        int pushed = (Integer) result.get("pushed");
        result.put("pushErrors", pushErrors.get());
        result.put("pushSeconds", round3(pushSeconds));
        result.put("pushRate", Math.round(pushed / pushSeconds));
        Arrays.sort(callNanos);
        result.put("pushCallP50Ms", Tracker.millis(Tracker.percentile(callNanos, 0.50) / 1_000));
        result.put("pushCallP99Ms", Tracker.millis(Tracker.percentile(callNanos, 0.99) / 1_000));
        result.put("durationSeconds", round3((System.nanoTime() - started) / 1e9));
        if (!serverDb.isEmpty()) {
            // the pops' transitions are journaled in the background
            target.settle();
            ServerLog.lateness(serverDb, dbUser, dbPassword, topic, result);
        }
        result.put("valid", (Integer) result.get("lost") == 0 && pushErrors.get() == 0
                && (Long) result.get("early") == 0 && (Long) result.get("dueMismatch") == 0
                && (Long) result.get("unknown") == 0);
        return new Run(result, tracker, pushEnd);
    }

    /** Pushes count messages due tomorrow, 1 000 per call, to a topic nobody consumes. */
    private void preload(int count, Map<String, Object> result) throws Exception {
        String topic = "bench-preload-" + tag;
        AtomicInteger nextCall = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        AtomicLong errors = new AtomicLong();
        int calls = (count + BATCH - 1) / BATCH;
        long start = System.nanoTime();
        parallel(producers, () -> {
            int call;
            while ((call = nextCall.getAndIncrement()) < calls) {
                int from = call * BATCH;
                int to = Math.min(count, from + BATCH);
                boolean ok;
                try {
                    ok = target.push(topic, outgoing(from, to, now -> now + DAY_MS + uniform(0, 3_600_000)));
                } catch (IOException e) {
                    ok = false;
                }
                if (ok) {
                    accepted.addAndGet(to - from);
                } else {
                    errors.addAndGet(to - from);
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        result.put("preloaded", accepted.get());
        result.put("preloadErrors", errors.get());
        result.put("preloadSeconds", round3(seconds));
        result.put("preloadRate", Math.round(accepted.get() / seconds));
        result.put("settleSeconds", round3(target.settle()));
    }

    /** Messages [from, to) of a run, sent now: each body carries its sequence number and due time. */
    private static List<Target.Outgoing> outgoing(int from, int to, DueTime due) {
        long now = System.currentTimeMillis();
        List<Target.Outgoing> outgoing = new ArrayList<>(to - from);
        for (int seq = from; seq < to; seq++) {
            long deliverAt = due.of(now);
            outgoing.add(new Target.Outgoing(Messages.body(seq, deliverAt, BODY_SIZE), deliverAt));
        }
        return outgoing;
    }

    /** The target of W6, whose restore only sdmq has. */
    private SdmqClient sdmq() {
        if (target instanceof SdmqClient client) {
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
        try (Resp redis = new Resp(redisUrl)) {
            for (String key : redis.keys(pattern)) {
                Object bytes = redis.call("MEMORY", "USAGE", key, "SAMPLES", "0");
                total += bytes == null ? 0 : (Long) bytes;
            }
        }
        return total;
    }

    /** Runs task on n threads and waits for all; the first failure is rethrown. */
    private static void parallel(int n, Task task) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread thread = new Thread(() -> {
                try {
                    task.run();
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "producer-" + i);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    interface Task {
        void run() throws Exception;
    }

    private static void parkUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    /** A uniform random number in [low, high]. */
    private static long uniform(long low, long high) {
        return ThreadLocalRandom.current().nextLong(low, high + 1);
    }

    static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
