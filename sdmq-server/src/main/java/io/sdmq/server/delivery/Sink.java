package io.sdmq.server.delivery;

import io.sdmq.common.Message;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where one topic's due messages go: a webhook, a RabbitMQ exchange, a Kafka topic. The topic's dispatcher reserves
 * each message for the settings' {@code timeout} and more before it sends it, keeps at most {@code concurrency} sends
 * under way ({@link SendLimits}), ends a send that takes longer than the timeout as a failed one, and finishes a
 * message only once its send answered {@link Sent#delivered()}: a sink completes a send's future only once the
 * receiver has the message (a 2xx, a publisher confirm, an acknowledged produce). Thread-safe; one instance per topic
 * and delivery settings.
 */
public interface Sink extends AutoCloseable {

    /**
     * Starts sending one message (its body, id, attempt, due time, topic and bizKey); the future completes with the
     * outcome, never exceptionally, or the dispatcher completes it as failed at the timeout.
     */
    CompletableFuture<Sent> send(Message message);

    /**
     * Starts sending the messages of one pop, answering one future per message in their order, each as
     * {@link #send} answers; a sink that gains by sending them together (one channel, one flush) overrides it.
     */
    default List<CompletableFuture<Sent>> sendAll(List<Message> messages) {
        return messages.stream().map(this::send).toList();
    }

    /** Releases what the sink holds (connections, channels, producers); sends under way may fail. */
    @Override
    void close();
}
