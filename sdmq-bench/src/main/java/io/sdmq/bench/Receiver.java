package io.sdmq.bench;

import java.io.IOException;
import java.util.List;

/**
 * W8's receiving end: what a topic's push delivery sends to, in the bench process, telling the {@link Tracker} of
 * each message it gets (on its own clock). {@link #delivery()} is the topic's {@code delivery} setting that points
 * the server at it.
 */
interface Receiver extends AutoCloseable {

    /** The {@code delivery} JSON object for {@code PUT /topics/{topic}}. */
    String delivery();

    @Override
    void close() throws IOException;

    /** A receiver of kind {@code webhook} or {@code rabbitmq} for the topic's messages. */
    static Receiver start(String kind, String topic, Tracker tracker, WorkloadOptions options) throws Exception {
        return switch (kind) {
            case "webhook" -> new WebhookReceiver(tracker);
            case "rabbitmq" -> new RabbitReceiver(options.rabbitUrl(), topic, tracker);
            default -> throw new IllegalArgumentException("--sink: webhook or rabbitmq, not " + kind);
        };
    }

    /** Tells the tracker of one message received now, due at the time a header named. */
    static void received(Tracker tracker, String id, String body, Object dueHeader) {
        long due = dueHeader == null ? -1 : Long.parseLong(dueHeader.toString());
        tracker.received(List.of(new Target.Delivered(id, body, due)), Clock.micros());
    }
}
