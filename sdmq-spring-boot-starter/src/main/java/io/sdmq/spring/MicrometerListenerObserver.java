package io.sdmq.spring;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The listener meters, tagged with the topic: {@code sdmq.listener.handled} and {@code sdmq.listener.failed}
 * (counters of messages the method returned or threw on), {@code sdmq.listener.processing} (a timer of the method's
 * time) and {@code sdmq.listener.lateness} (a timer of how long after its due time each message was received: the
 * delay the queue adds).
 */
public class MicrometerListenerObserver implements ListenerObserver {
    private final MeterRegistry registry;
    private final Map<String, Meters> byTopic = new ConcurrentHashMap<>();

    public MicrometerListenerObserver(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void received(String topic, Duration lateness) {
        meters(topic).lateness.record(lateness);
    }

    @Override
    public void handled(String topic, Duration took) {
        Meters meters = meters(topic);
        meters.processing.record(took);
        meters.handled.increment();
    }

    @Override
    public void failed(String topic, Duration took) {
        Meters meters = meters(topic);
        meters.processing.record(took);
        meters.failed.increment();
    }

    private Meters meters(String topic) {
        return byTopic.computeIfAbsent(topic, this::register);
    }

    private Meters register(String topic) {
        return new Meters(
                Counter.builder("sdmq.listener.handled").description("messages the listener method returned on")
                        .tag("topic", topic).register(registry),
                Counter.builder("sdmq.listener.failed").description("messages the listener method threw on")
                        .tag("topic", topic).register(registry),
                Timer.builder("sdmq.listener.processing").description("time in the listener method")
                        .tag("topic", topic).register(registry),
                Timer.builder("sdmq.listener.lateness").description("receive time minus due time of each message")
                        .tag("topic", topic).register(registry));
    }

    private record Meters(Counter handled, Counter failed, Timer processing, Timer lateness) {
    }
}
