package io.sdmq.core.spi;

import java.util.Collection;

/**
 * Tells the other instances which topics of a bucket just got ready messages: one signal per move batch.
 * An instance does not hear its own signals.
 */
public interface ReadySignal extends AutoCloseable {

    void publish(int bucket, Collection<String> topics);

    /** Calls {@code listener} once per topic of each signal from another instance. */
    void subscribe(Listener listener);

    @Override
    void close();

    @FunctionalInterface
    interface Listener {
        void ready(int bucket, String topic);
    }
}
