package io.sdmq.spring;

import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a container for every {@code @SdmqListener} once the context is refreshed, and stops them gracefully before
 * the beans are destroyed (the client among them): no new polls, the messages under way ended and finished, the
 * others given back. The stop takes at most {@code sdmq.client.listener.shutdown-timeout} plus a poll under way.
 */
public class SdmqListenerContainers implements SmartLifecycle {
    private final SdmqListenerAnnotationProcessor listeners;
    private final SdmqListenerContainerFactory factory;
    private final List<SdmqListenerContainer> containers = new ArrayList<>();
    private boolean running;

    public SdmqListenerContainers(SdmqListenerAnnotationProcessor listeners, SdmqListenerContainerFactory factory) {
        this.listeners = listeners;
        this.factory = factory;
    }

    @Override
    public synchronized void start() {
        for (ListenerEndpoint endpoint : listeners.endpoints()) {
            SdmqListenerContainer container = factory.create(endpoint);
            containers.add(container);
            container.start();
        }
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        Duration timeout = factory.shutdownTimeout();
        containers.forEach(SdmqListenerContainer::stopPolling);
        long deadline = System.nanoTime() + timeout.toNanos();
        containers.forEach(c -> c.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
        containers.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    /** The running containers, one per listener method. */
    public synchronized List<SdmqListenerContainer> containers() {
        return List.copyOf(containers);
    }
}
