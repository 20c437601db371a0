package io.sdmq.server.metrics;

import io.sdmq.core.spi.MessageEvents;

import java.util.List;

/** Tells each of several listeners every event, in their order: the meters and the delivery series. */
final class EveryMessageEvents implements MessageEvents {
    private final List<MessageEvents> listeners;

    EveryMessageEvents(List<MessageEvents> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void pushed(String topic) {
        listeners.forEach(l -> l.pushed(topic));
    }

    @Override
    public void delivered(String topic, long dueTime, long now) {
        listeners.forEach(l -> l.delivered(topic, dueTime, now));
    }

    @Override
    public void finished(String topic) {
        listeners.forEach(l -> l.finished(topic));
    }

    @Override
    public void nacked(String topic) {
        listeners.forEach(l -> l.nacked(topic));
    }

    @Override
    public void redelivered(String topic) {
        listeners.forEach(l -> l.redelivered(topic));
    }

    @Override
    public void dead(String topic) {
        listeners.forEach(l -> l.dead(topic));
    }
}
