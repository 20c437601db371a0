package io.sdmq.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sdmq.core.spi.MessageEvents;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The engine's message events as Micrometer meters, per topic tag ({@link TopicTags}): the counters
 * {@code sdmq.messages.pushed}, {@code .delivered}, {@code .finished}, {@code .nacked}, {@code .redelivered} (a
 * time-to-run passed) and {@code .dead}, and the timer {@code sdmq.delivery.lateness} (hand-out time minus due time)
 * with fixed histogram buckets from 5 ms to an hour. A topic's meters are made once and then looked up in a map.
 */
final class MicrometerMessageEvents implements MessageEvents {
    private static final Duration[] LATENESS_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5),
            Duration.ofMinutes(15), Duration.ofHours(1)};

    private final MeterRegistry registry;
    private final TopicTags tags;
    private final Map<String, TopicMeters> meters = new ConcurrentHashMap<>();

    MicrometerMessageEvents(MeterRegistry registry, TopicTags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    @Override
    public void pushed(String topic) {
        of(topic).pushed.increment();
    }

    @Override
    public void delivered(String topic, long dueTime, long now) {
        TopicMeters m = of(topic);
        m.delivered.increment();
        // hosts' clocks may differ a little: a hand-out is never early by sdmq's own rule
        m.lateness.record(Math.max(0, now - dueTime), TimeUnit.MILLISECONDS);
    }

    @Override
    public void finished(String topic) {
        of(topic).finished.increment();
    }

    @Override
    public void nacked(String topic) {
        of(topic).nacked.increment();
    }

    @Override
    public void redelivered(String topic) {
        of(topic).redelivered.increment();
    }

    @Override
    public void dead(String topic) {
        of(topic).dead.increment();
    }

    private TopicMeters of(String topic) {
        return meters.computeIfAbsent(tags.of(topic), this::register);
    }

    private TopicMeters register(String tag) {
        return new TopicMeters(counter("pushed", "new messages committed and scheduled", tag),
                counter("delivered", "messages handed out to consumers", tag),
                counter("finished", "reservations finished", tag),
                counter("nacked", "reservations given back by their consumer", tag),
                counter("redelivered", "reservations whose time-to-run passed, due again after their backoff", tag),
                counter("dead", "messages that became dead", tag),
                Timer.builder("sdmq.delivery.lateness").description("hand-out time minus due time")
                        .tag("topic", tag).serviceLevelObjectives(LATENESS_BUCKETS).register(registry));
    }

    private Counter counter(String event, String description, String tag) {
        return Counter.builder("sdmq.messages." + event).description(description).tag("topic", tag)
                .register(registry);
    }

    private record TopicMeters(Counter pushed, Counter delivered, Counter finished, Counter nacked,
                               Counter redelivered, Counter dead, Timer lateness) {
    }
}
