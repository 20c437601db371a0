package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Test producers for fault tests: threads that push one message after another to whichever server {@code server}
 * names, pausing between pushes, until {@link #stop()} or until {@code max} pushes were tried. Only a push answered
 * 200 counts as acknowledged; one answered otherwise (503 while a backing service is down) counts as refused, one
 * without a reply (the server died, the connection was cut) as failed; either is followed by a longer pause.
 */
final class Producers implements AutoCloseable {
    private static final long REFUSED_PAUSE_MS = 50;

    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger tried = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ExecutorService threads;
    private final List<Future<?>> producers = new ArrayList<>();

    private Producers(int threads) {
        this.threads = Executors.newFixedThreadPool(threads);
    }

    /** Starts {@code threads} producers that each push {@code json.get()} and then pause {@code pauseMs}. */
    static Producers start(int threads, Supplier<HttpApi> server, Supplier<String> json, int max, long pauseMs) {
        Producers producers = new Producers(threads);
        for (int t = 0; t < threads; t++) {
            producers.producers.add(producers.threads.submit(() -> producers.run(server, json, max, pauseMs)));
        }
        return producers;
    }

    private void run(Supplier<HttpApi> server, Supplier<String> json, int max, long pauseMs) {
        while (!stopped.get() && sent.getAndIncrement() < max) {
            boolean ok = push(server.get(), json.get());
            if (!sleep(ok ? pauseMs : REFUSED_PAUSE_MS)) {
                return;
            }
        }
    }

    private boolean push(HttpApi api, String json) {
        tried.incrementAndGet();
        try {
            Reply reply = api.post("/push", json);
            if (reply.status() == 200) {
                acked.add(reply.data().asString());
                return true;
            }
            refused.incrementAndGet();
        } catch (IllegalStateException e) {
            failed.incrementAndGet();
        }
        return false;
    }

    private static boolean sleep(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ids of the pushes answered 200 so far. */
    Set<String> acked() {
        return Set.copyOf(acked);
    }

    /** How many pushes were answered 200 so far. */
    int ackedCount() {
        return acked.size();
    }

    /** Pushes tried so far. */
    int sent() {
        return tried.get();
    }

    /** Pushes answered other than 200. */
    int refused() {
        return refused.get();
    }

    /** Pushes that got no reply. */
    int failed() {
        return failed.get();
    }

    /** Stops pushing and waits until every push in flight was answered; returns the acknowledged ids. */
    Set<String> stop() throws Exception {
        stopped.set(true);
        for (Future<?> producer : producers) {
            producer.get(30, TimeUnit.SECONDS);
        }
        return acked();
    }

    @Override
    public void close() {
        stopped.set(true);
        threads.shutdownNow();
    }
}
