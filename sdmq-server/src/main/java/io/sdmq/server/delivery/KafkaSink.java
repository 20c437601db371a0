package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.ProducerListener;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Produces one sdmq topic's messages to one Kafka topic with a producer of its own: key the bizKey or else the id,
 * value the body in UTF-8, headers {@code sdmq-id}, {@code sdmq-topic}, {@code sdmq-attempt}, {@code sdmq-due-time}
 * and {@code sdmq-biz-key} when set. A send is delivered once Kafka acknowledged the record ({@code acks=all}).
 * <p>
 * The producer's own call may wait for metadata or buffer room, so it runs on the sink's thread, never the
 * dispatcher's; a record that waited there more than a quarter of the timeout is not produced at all. The producer
 * gives up on a record within the other three quarters ({@code max.block.ms} + {@code delivery.timeout.ms}, see
 * {@link KafkaSinkType#producerProperties}), so no record is sent after the send's outcome was reported.
 */
final class KafkaSink implements Sink {
    /** How long the producer may take to close, flushing what it holds. */
    private static final int CLOSE_SECONDS = 5;

    private final String topic;
    private final String kafkaTopic;
    private final long blockLimitNanos;
    private final DefaultKafkaProducerFactory<String, byte[]> producers;
    private final KafkaTemplate<String, byte[]> template;
    private final ExecutorService sender;

    KafkaSink(String topic, String kafkaTopic, int timeoutMs, Map<String, Object> producerProperties) {
        this.topic = topic;
        this.kafkaTopic = kafkaTopic;
        this.blockLimitNanos = TimeUnit.MILLISECONDS.toNanos(blockLimitMs(timeoutMs));
        this.producers = new DefaultKafkaProducerFactory<>(producerProperties, new StringSerializer(),
                new ByteArraySerializer());
        producers.setPhysicalCloseTimeout(CLOSE_SECONDS);
        // made now, so a bad producer property fails the opening, not every send
        producers.createProducer().close();
        this.template = new KafkaTemplate<>(producers);
        // outcomes go to the status log; Spring's default listener would log each failed record, body and all
        template.setProducerListener(new ProducerListener<>() {
        });
        this.sender = Executors.newSingleThreadExecutor(Daemons.factory("sdmq-kafka-" + topic));
    }

    /** How long a send may wait for the producer to take its record: a quarter of the sink's timeout. */
    static int blockLimitMs(int timeoutMs) {
        return timeoutMs / 4;
    }

    @Override
    public CompletableFuture<Sent> send(Message message) {
        long calledAt = System.nanoTime();
        CompletableFuture<Sent> outcome = new CompletableFuture<>();
        try {
            sender.execute(() -> produce(message, calledAt, outcome));
        } catch (RejectedExecutionException e) {
            outcome.complete(Sent.retry("the Kafka sink of topic " + topic + " was closed"));
        }
        return outcome;
    }

    private void produce(Message message, long calledAt, CompletableFuture<Sent> outcome) {
        if (System.nanoTime() - calledAt > blockLimitNanos || outcome.isDone()) {
            outcome.complete(Sent.retry("not produced: the Kafka producer was blocked (metadata or buffer) for over "
                    + TimeUnit.NANOSECONDS.toMillis(blockLimitNanos) + " ms"));
            return;
        }
        try {
            template.send(record(message)).whenComplete((result, failure) ->
                    outcome.complete(failure == null ? Sent.delivered() : failed(failure)));
        } catch (RuntimeException e) {
            outcome.complete(failed(e));
        }
    }

    private ProducerRecord<String, byte[]> record(Message m) {
        String key = m.bizKey() != null ? m.bizKey() : Long.toString(m.id());
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(kafkaTopic, key,
                m.body().getBytes(StandardCharsets.UTF_8));
        Headers headers = record.headers();
        header(headers, "sdmq-id", Long.toString(m.id()));
        header(headers, "sdmq-topic", m.topic());
        header(headers, "sdmq-attempt", Integer.toString(m.attempts()));
        header(headers, "sdmq-due-time", Long.toString(m.dueTime()));
        if (m.bizKey() != null) {
            header(headers, "sdmq-biz-key", m.bizKey());
        }
        return record;
    }

    private static void header(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A failed produce: DEAD when no retry can help (the record is too large, the topic name is invalid, this
     * client may not write the topic, the broker refused the record), else a retry.
     */
    static Sent failed(Throwable failure) {
        Throwable cause = failure;
        while (!(cause instanceof KafkaException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String reason = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
        boolean hopeless = cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
                || cause instanceof InvalidTopicException || cause instanceof InvalidRecordException
                || cause instanceof AuthorizationException;
        return hopeless ? Sent.dead("Kafka refused the record: " + reason) : Sent.retry("Kafka: " + reason);
    }

    @Override
    public void close() {
        sender.shutdownNow();
        producers.destroy();
    }
}
