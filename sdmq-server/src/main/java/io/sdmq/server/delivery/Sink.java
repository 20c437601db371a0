package io.sdmq.server.delivery;

import io.sdmq.common.Message;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Where one topic's due messages go: a webhook, a RabbitMQ exchange, a Kafka topic. The topic's dispatcher reserves
 * each message for {@link #timeout()} and more before it calls {@link #send}, and finishes it only once the send
 * answered {@link Sent#delivered()}: a sink must complete a send's future only once the receiver has the message (a
 * 2xx, a publisher confirm, an acknowledged produce). Thread-safe; one instance per topic and delivery settings.
 */
public interface Sink extends AutoCloseable {

    /** The longest a send may take from its call to its outcome; a send that takes longer fails with a note. */
    Duration timeout();

    /** The most sends this instance keeps under way at once for the topic. */
    int concurrency();

    /**
     * Starts sending one message (its body, id, attempt, due time, topic and bizKey); the future completes within
     * {@link #timeout()} with the outcome, never exceptionally.
     */
    CompletableFuture<Sent> send(Message message);

    /** Releases what the sink holds (connections, channels, producers); sends under way may fail. */
    @Override
    void close();
}
