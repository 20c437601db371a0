package io.sdmq.core.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** A ready signal that only records what it was asked to publish. */
public final class InMemoryReadySignal implements ReadySignal {
    private final List<String> published = new ArrayList<>();

    @Override
    public synchronized void publish(int bucket, Collection<String> topics) {
        topics.forEach(topic -> published.add(bucket + "/" + topic));
    }

    @Override
    public void subscribe(Listener listener) {
    }

    @Override
    public void close() {
    }

    public synchronized List<String> published() {
        return List.copyOf(published);
    }
}
