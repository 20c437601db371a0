package io.sdmq.spring;

import io.sdmq.client.SdmqClient;
import io.sdmq.spring.SdmqClientProperties.Listener;

import java.time.Duration;

/**
 * Makes the container of each {@code @SdmqListener}, with the client, the listener defaults and the observer it
 * reports to. Declare a bean of this type to change them for every listener.
 */
public class SdmqListenerContainerFactory {
    private final SdmqClient client;
    private final Listener settings;
    private final ListenerObserver observer;

    public SdmqListenerContainerFactory(SdmqClient client, Listener settings, ListenerObserver observer) {
        this.client = client;
        this.settings = settings;
        this.observer = observer;
    }

    /** A container of {@code endpoint}, not started; the default concurrency applies when it names none. */
    public SdmqListenerContainer create(ListenerEndpoint endpoint) {
        return new SdmqListenerContainer(endpoint.withDefaultConcurrency(settings.concurrency()), client, settings,
                observer);
    }

    /** How long a stop waits for the messages being handled. */
    public Duration shutdownTimeout() {
        return settings.shutdownTimeout();
    }
}
