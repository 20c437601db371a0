package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.core.Consumer;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link TopicDispatcher} for every topic whose settings name a delivery, on every instance: looks at this
 * instance's copy of the topics' settings every {@code sdmq.delivery.refresh} and starts, replaces or stops
 * dispatchers to match. Starts after the engine; in a shutdown it stops after the parked consumers were answered and
 * before the web server and the engine stop, letting the sends under way end first.
 */
@Component
public class Dispatchers implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Dispatchers.class);
    /** How long a sink that could not be opened is left before the next try. */
    private static final long REOPEN_AFTER_MS = 30_000;

    private final Topics topics;
    private final Consumer consumer;
    private final DeliveryTargets targets;
    private final DeliveryProperties properties;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Acknowledgements acks;
    private final Map<String, TopicDispatcher> running = new HashMap<>();
    private final Map<String, Long> failedAt = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;
    private volatile boolean started;
    private volatile int delivering;
    private volatile boolean stopping;

    /**
     * Fails when {@code sdmq.delivery.batch} is above what one pop may take ({@code sdmq.consumer.max-count}): a
     * dispatcher pops as a consumer does, and every pop of a sink with more room would be refused.
     */
    Dispatchers(Topics topics, Consumer consumer, DeliveryTargets targets, DeliveryProperties properties,
                EngineSettings engine, Clock clock, MeterRegistry registry) {
        if (properties.batch() > engine.maxPopCount()) {
            throw new IllegalArgumentException("sdmq.delivery.batch: must be at most sdmq.consumer.max-count ("
                    + engine.maxPopCount() + "), since a dispatcher pops as a consumer does; not "
                    + properties.batch());
        }
        this.registry = registry;
        this.topics = topics;
        this.consumer = consumer;
        this.targets = targets;
        this.properties = properties;
        this.clock = clock;
        this.acks = new Acknowledgements(consumer);
    }

    @Override
    public void start() {
        stopping = false;
        acks.start();
        timer = Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-delivery"));
        timer.scheduleWithFixedDelay(this::refresh, 0, properties.refresh().toMillis(), TimeUnit.MILLISECONDS);
        started = true;
    }

    /** Starts, replaces and stops dispatchers to match the topics' delivery settings. */
    private synchronized void refresh() {
        if (stopping) {
            return;
        }
        try {
            Map<String, Map<String, Object>> wanted = new HashMap<>();
            topics.current().forEach((topic, settings) -> {
                if (settings.delivery() != null) {
                    wanted.put(topic, settings.delivery());
                }
            });
            running.entrySet().removeIf(e -> {
                if (e.getValue().delivery().equals(wanted.get(e.getKey()))) {
                    return false;
                }
                e.getValue().stop(properties.shutdownWait());
                log.info("delivery of topic {} stopped", e.getKey());
                return true;
            });
            wanted.forEach((topic, delivery) -> {
                if (!running.containsKey(topic)) {
                    open(topic, delivery);
                }
            });
            delivering = running.size();
        } catch (RuntimeException e) {
            log.warn("could not bring the deliveries up to date ({}); trying again", e.toString());
        }
    }

    private void open(String topic, Map<String, Object> delivery) {
        Long failed = failedAt.get(topic);
        if (failed != null && clock.millis() - failed < REOPEN_AFTER_MS) {
            return;
        }
        try {
            TopicDispatcher dispatcher = new TopicDispatcher(topic, delivery, targets.open(topic, delivery), consumer,
                    acks, properties.batch(), registry);
            dispatcher.start();
            running.put(topic, dispatcher);
            failedAt.remove(topic);
            log.info("delivery of topic {} started: {}", topic, targets.shown(delivery));
        } catch (RuntimeException e) {
            failedAt.put(topic, clock.millis());
            log.error("could not open the delivery of topic {} ({}); trying again in {} s", topic, e.toString(),
                    REOPEN_AFTER_MS / 1_000);
        }
    }

    /** How many topics this instance delivers to a sink now. */
    public int delivering() {
        return delivering;
    }

    /** A topic whose messages go to a sink hands none to consumers that poll: a pop of one is refused with 400. */
    public void checkPolled(String topic) {
        TopicSettings settings = topics.current().get(topic);
        if (settings != null && settings.delivery() != null) {
            throw new InvalidRequestException("topic", "delivers its messages to a sink (delivery type "
                    + settings.delivery().get("type") + "); consumers poll only topics without a delivery");
        }
    }

    @Override
    public void stop() {
        stopping = true;
        started = false;
        timer.shutdownNow();
        synchronized (this) {
            running.values().parallelStream().forEach(d -> d.stop(properties.shutdownWait()));
            running.clear();
            delivering = 0;
        }
        acks.stop();
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    /**
     * Starts after the engine ({@code Integer.MAX_VALUE - 4096}); stops after the parked consumers were answered
     * ({@code Integer.MAX_VALUE}) and before the web server ({@code Integer.MAX_VALUE - 1024}).
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 512;
    }
}
