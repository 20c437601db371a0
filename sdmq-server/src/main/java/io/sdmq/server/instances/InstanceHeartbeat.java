package io.sdmq.server.instances;

import io.sdmq.common.Daemons;
import io.sdmq.core.engine.Engine;
import io.sdmq.server.delivery.Dispatchers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes this instance's entry every {@code sdmq.instances.refresh} on its own daemon thread, from the moment the
 * engine runs; removes it at the start of a graceful shutdown, so the instance leaves the list at once. A write that
 * fails (Redis away) is logged and tried again at the next refresh.
 */
final class InstanceHeartbeat implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(InstanceHeartbeat.class);

    /** What an entry says that does not change while the instance runs. */
    record Identity(String instance, String host, String version) {
    }

    private final InstanceRegistry registry;
    private final Identity identity;
    private final Engine engine;
    private final Dispatchers dispatchers;
    private final Clock clock;
    private final long refreshMs;
    private ScheduledExecutorService timer;
    private volatile long startedAt;
    private volatile boolean running;

    InstanceHeartbeat(InstanceRegistry registry, Identity identity, Engine engine, Dispatchers dispatchers,
                      Clock clock, InstancesProperties properties) {
        this.registry = registry;
        this.identity = identity;
        this.engine = engine;
        this.dispatchers = dispatchers;
        this.clock = clock;
        this.refreshMs = properties.refresh().toMillis();
    }

    @Override
    public void start() {
        startedAt = clock.millis();
        timer = Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-instances"));
        timer.scheduleWithFixedDelay(this::beat, 0, refreshMs, TimeUnit.MILLISECONDS);
        running = true;
    }

    private void beat() {
        try {
            registry.write(new InstanceEntry(identity.instance(), identity.host(), startedAt, clock.millis(), true,
                    engine.schedulerLagMs(), engine.pendingWrites(), dispatchers.delivering(), identity.version()));
        } catch (Throwable t) {
            log.warn("could not write this instance's entry to Redis ({}); will retry in {} ms", t.toString(),
                    refreshMs);
        }
    }

    /** Waits for a write under way, so that none lands after the removal and brings the entry back. */
    @Override
    public void stop() {
        running = false;
        timer.shutdownNow();
        try {
            timer.awaitTermination(refreshMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            registry.remove(identity.instance());
        } catch (RuntimeException e) {
            log.warn("could not remove this instance's entry from Redis ({}); it expires by itself", e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Starts after the engine ({@code Integer.MAX_VALUE - 4096}) and the deliveries ({@code - 512}); stops after the
     * parked consumers were answered ({@code Integer.MAX_VALUE}) and before the rest.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 256;
    }
}
