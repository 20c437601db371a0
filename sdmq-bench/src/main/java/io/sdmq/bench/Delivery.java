package io.sdmq.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The delivery workloads' run: pushes messages (see {@link Producers}) while consumers take them, waits until all
 * were received (see {@link Consumers#drain}), and counts what happened: the {@link Tracker}'s counts, the push rate
 * and call times, the lateness the server's status log records (with --server-db), and whether the figures count.
 */
final class Delivery {
    private final Target target;
    private final WorkloadOptions options;
    private final String tag;

    /** What one delivery run measured, and when its last push was answered (epoch ms). */
    record Run(Map<String, Object> result, Tracker tracker, long pushEndMillis) {
    }

    /** tag: in the name of every topic, so that runs do not share one. */
    Delivery(Target target, WorkloadOptions options, String tag) {
        this.target = target;
        this.options = options;
        this.tag = tag;
    }

    /** Unpaced when rate is 0, batch messages per call; else paced, rate calls of one message per second. */
    Run run(String workload, int messages, int batch, double rate, Producers.DueTime due) throws Exception {
        String topic = "bench-" + workload + "-" + tag;
        Tracker tracker = new Tracker(messages);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", workload);
        result.put("messages", messages);
        result.put(rate > 0 ? "inflightCap" : "producers", rate > 0 ? options.inflight() : options.producers());
        result.put("consumers", options.sink().isEmpty() ? options.consumers() : 0);
        result.put("perCall", batch);
        Receiver receiver = settle(topic, tracker, result);
        // what an earlier workload left in the server's MySQL queue would otherwise be written during this one
        result.put("startSettleSeconds", Workloads.round3(target.settle()));
        long callsBefore = target.serverCalls();
        long started = System.nanoTime();
        Consumers consuming = new Consumers(target, topic, receiver == null ? options.consumers() : 0, tracker);
        Pushed pushed;
        try (receiver) {
            pushed = push(topic, messages, batch, rate, due, tracker);
            tracker.pushingDone();
            consuming.drain(tracker, pushed.latestDue(), options.idleMs(), options.maxDrainMs());
        }
        tracker.summarise(result);
        pushed.addTo(result);
        result.put("durationSeconds", Workloads.round3((System.nanoTime() - started) / 1e9));
        serverSide(topic, messages, callsBefore, result);
        result.put("valid", (Integer) result.get("lost") == 0 && pushed.errors() == 0
                && (Long) result.get("early") == 0 && (Long) result.get("dueMismatch") == 0
                && (Long) result.get("unknown") == 0);
        return new Run(result, tracker, pushed.endMillis());
    }

    /** The topic's settings when the run asks for some, and the receiver its messages are pushed to, if any. */
    private Receiver settle(String topic, Tracker tracker, Map<String, Object> result) throws Exception {
        if (options.topicSettings() > 0) {
            TopicSettings.apply(options.url(), topic, options.topicSettings());
            result.put("topicSettings", options.topicSettings());
        }
        Receiver receiver = options.sink().isEmpty() ? null : Receiver.start(options.sink(), topic, tracker, options);
        if (receiver != null) {
            TopicSettings.apply(options.url(), topic, "{\"delivery\":" + receiver.delivery() + "}");
            result.put("sink", options.sink());
        }
        return receiver;
    }

    /** The calls the server counted for the run, and the lateness its status log recorded. */
    private void serverSide(String topic, int messages, long callsBefore, Map<String, Object> result)
            throws Exception {
        if (callsBefore >= 0) {
            long calls = target.serverCalls() - callsBefore;
            result.put("serverCalls", calls);
            result.put("callsPerMessage", Workloads.round3((double) calls / messages));
        }
        if (!options.serverDb().isEmpty()) {
            // the pops' transitions are written to the status log in the background
            target.settle();
            ServerLog.lateness(options.serverDb(), options.dbUser(), options.dbPassword(), topic, result);
        }
    }

    /** Pushes the run's messages, telling tracker which were acknowledged. */
    private Pushed push(String topic, int messages, int batch, double rate, Producers.DueTime due, Tracker tracker)
            throws Exception {
        AtomicLong latestDue = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long[] callNanos = new long[(messages + batch - 1) / batch];
        Producers.DueTime tracked = now -> {
            long deliverAt = due.of(now);
            latestDue.accumulateAndGet(deliverAt, Math::max);
            return deliverAt;
        };
        Producers.Answer answer = (call, from, to, ok, nanos) -> {
            callNanos[call] = nanos;
            if (ok) {
                tracker.acknowledged(from, to);
            } else {
                errors.addAndGet(to - from);
            }
        };
        Producers producers = new Producers(target, topic);
        long start = System.nanoTime();
        if (rate > 0 && batch == 1) {
            producers.paced(messages, rate, options.inflight(), tracked, answer);
        } else if (options.pushAsync() && batch == 1) {
            producers.unpacedAsync(options.producers(), messages, tracked, answer);
        } else {
            producers.unpaced(options.producers(), messages, batch, tracked, answer);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Pushed(latestDue.get(), errors.get(), seconds, callNanos, System.currentTimeMillis());
    }

    /**
     * What the pushes of a run did: the latest due time they gave (epoch ms), the messages not acknowledged, how
     * long they took, each call's time, and when the last was answered (epoch ms).
     */
    private record Pushed(long latestDue, long errors, double seconds, long[] callNanos, long endMillis) {
        /** The push figures, after the tracker's (it counts the pushed messages). */
        void addTo(Map<String, Object> result) {
            int pushed = (Integer) result.get("pushed");
            result.put("pushErrors", errors);
            result.put("pushSeconds", Workloads.round3(seconds));
            result.put("pushRate", Math.round(pushed / seconds));
            Arrays.sort(callNanos);
            result.put("pushCallP50Ms", Tracker.millis(Tracker.percentile(callNanos, 0.50) / 1_000));
            result.put("pushCallP99Ms", Tracker.millis(Tracker.percentile(callNanos, 0.99) / 1_000));
        }
    }
}
