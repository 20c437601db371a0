package io.sdmq.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What happened to each message of one run, by sequence number: whether its push was acknowledged, when it was
 * first received and how often. From that: lost (acknowledged, never delivered), early (received before its due
 * time), duplicates (deliveries beyond the first) and the lateness of first deliveries.
 */
final class Tracker {
    private final AtomicIntegerArray acknowledged;
    private final AtomicIntegerArray deliveries;
    private final AtomicLongArray firstReceivedMicros;
    private final AtomicLongArray dueMillis;
    private final AtomicInteger acknowledgedCount = new AtomicInteger();
    private final AtomicInteger distinctDelivered = new AtomicInteger();
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong earlyMaxMicros = new AtomicLong();
    private final AtomicLong dueMismatch = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong finishErrors = new AtomicLong();
    private final AtomicLong getErrors = new AtomicLong();
    private final AtomicLong finishCalls = new AtomicLong();
    private final AtomicLong finishIds = new AtomicLong();
    private final AtomicLong finishNanos = new AtomicLong();
    private final AtomicLong finishMaxNanos = new AtomicLong();
    private final AtomicBoolean pushing = new AtomicBoolean(true);

    Tracker(int messages) {
        acknowledged = new AtomicIntegerArray(messages);
        deliveries = new AtomicIntegerArray(messages);
        firstReceivedMicros = new AtomicLongArray(messages);
        dueMillis = new AtomicLongArray(messages);
    }

    /** The server acknowledged the push of messages [from, to). */
    void acknowledged(int from, int to) {
        for (int seq = from; seq < to; seq++) {
            acknowledged.set(seq, 1);
        }
        acknowledgedCount.addAndGet(to - from);
    }

    void pushingDone() {
        pushing.set(false);
    }

    /** Every acknowledged message has been received at least once, and no more pushes come. */
    boolean allDelivered() {
        return !pushing.get() && distinctDelivered.get() >= acknowledgedCount.get();
    }

    int distinctDelivered() {
        return distinctDelivered.get();
    }

    /** One batch a consumer took, received at receivedMicros. */
    void received(List<Target.Delivered> batch, long receivedMicros) {
        for (Target.Delivered m : batch) {
            int seq;
            long due;
            try {
                seq = Messages.seqOf(m.body());
                due = Messages.dueOf(m.body());
            } catch (RuntimeException notOurs) {
                unknown.incrementAndGet();
                continue;
            }
            if (seq < 0 || seq >= deliveries.length()) {
                unknown.incrementAndGet();
                continue;
            }
            if (m.dueTime() != due) {
                dueMismatch.incrementAndGet();
            }
            if (receivedMicros < due * 1_000) {
                early.incrementAndGet();
                earlyMaxMicros.accumulateAndGet(due * 1_000 - receivedMicros, Math::max);
            }
            if (deliveries.getAndIncrement(seq) == 0) {
                dueMillis.set(seq, due);
                firstReceivedMicros.set(seq, receivedMicros);
                distinctDelivered.incrementAndGet();
            }
        }
    }

    /** One /finish call of ids took nanos. */
    void finishTook(int ids, long nanos) {
        finishCalls.incrementAndGet();
        finishIds.addAndGet(ids);
        finishNanos.addAndGet(nanos);
        finishMaxNanos.accumulateAndGet(nanos, Math::max);
    }

    void finishFailed(int ids) {
        finishErrors.addAndGet(ids);
    }

    void getFailed() {
        getErrors.incrementAndGet();
    }

    /** The latest first receive time, in micros, or 0 when nothing was received. */
    long lastFirstReceiveMicros() {
        long last = 0;
        for (int seq = 0; seq < firstReceivedMicros.length(); seq++) {
            last = Math.max(last, firstReceivedMicros.get(seq));
        }
        return last;
    }

    /** The counts and lateness percentiles; call once producers and consumers have stopped. */
    void summarise(Map<String, Object> result) {
        int lost = 0;
        long duplicates = 0;
        int delivered = 0;
        long[] lateness = new long[deliveries.length()];
        for (int seq = 0; seq < deliveries.length(); seq++) {
            int times = deliveries.get(seq);
            if (times > 0) {
                lateness[delivered++] = firstReceivedMicros.get(seq) - dueMillis.get(seq) * 1_000;
                duplicates += times - 1;
            } else if (acknowledged.get(seq) == 1) {
                lost++;
            }
        }
        lateness = Arrays.copyOf(lateness, delivered);
        Arrays.sort(lateness);
        result.put("pushed", acknowledgedCount.get());
        result.put("delivered", delivered);
        result.put("lost", lost);
        result.put("early", early.get());
        result.put("earlyMaxMs", millis(earlyMaxMicros.get()));
        result.put("duplicates", duplicates);
        result.put("dueMismatch", dueMismatch.get());
        result.put("unknown", unknown.get());
        result.put("finishErrors", finishErrors.get());
        result.put("getErrors", getErrors.get());
        long calls = Math.max(1, finishCalls.get());
        result.put("idsPerFinish", Math.round(10.0 * finishIds.get() / calls) / 10.0);
        result.put("finishCallAvgMs", millis(finishNanos.get() / calls / 1_000));
        result.put("finishCallMaxMs", millis(finishMaxNanos.get() / 1_000));
        result.put("latenessP50Ms", millis(percentile(lateness, 0.50)));
        result.put("latenessP99Ms", millis(percentile(lateness, 0.99)));
        result.put("latenessP999Ms", millis(percentile(lateness, 0.999)));
        result.put("latenessMaxMs", millis(delivered == 0 ? 0 : lateness[delivered - 1]));
    }

    /** Nearest-rank percentile of sorted values; 0 for none. */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** Micros as ms, rounded to 0.01. */
    static double millis(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }
}
