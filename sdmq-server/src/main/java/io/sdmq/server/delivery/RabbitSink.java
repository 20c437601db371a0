package io.sdmq.server.delivery;

import io.sdmq.common.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes one topic's messages to a RabbitMQ exchange, persistent and mandatory, each with a {@link CorrelationData}
 * whose future the broker's publisher confirm completes (the broker acks in batches, asynchronously). A send is
 * delivered only when the confirm is an ack and the message was not returned as unroutable (a return always arrives
 * before its confirm); a return, a nack, no confirm within the timeout, or a broker that cannot be reached is a retry.
 */
final class RabbitSink implements Sink {
    private final RabbitTemplate template;
    private final String topic;
    private final String exchange;
    private final String routingKey;
    private final Duration timeout;
    private final int concurrency;
    /** Makes each correlation id unique, as returns need: a message may be sent again while its return is late. */
    private final AtomicLong sends = new AtomicLong();

    RabbitSink(ConnectionFactory connectionFactory, String topic, String exchange, String routingKey,
               Duration timeout, int concurrency) {
        this.template = new RabbitTemplate(connectionFactory);
        this.template.setMandatory(true);
        // a return is read from the send's CorrelationData; this callback only keeps the template from warning
        this.template.setReturnsCallback(returned -> { });
        this.topic = topic;
        this.exchange = exchange;
        this.routingKey = routingKey;
        this.timeout = timeout;
        this.concurrency = concurrency;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    @Override
    public CompletableFuture<Sent> send(Message message) {
        long started = System.nanoTime();
        CorrelationData correlation = new CorrelationData(message.id() + "-" + sends.incrementAndGet());
        try {
            template.send(exchange, routingKey, amqpMessage(message), correlation);
        } catch (RuntimeException e) {
            // an AmqpException above all (no connection, no channel); a send answers, it never throws
            return CompletableFuture.completedFuture(Sent.retry("rabbitmq: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage())));
        }
        long left = timeout.toNanos() - (System.nanoTime() - started);
        return correlation.getFuture()
                .handle((confirm, failure) -> {
                    if (failure != null) {
                        return Sent.retry("rabbitmq: " + failure);
                    }
                    ReturnedMessage returned = correlation.getReturned();
                    if (returned != null) {
                        return Sent.retry("rabbitmq: unroutable: " + returned.getReplyText());
                    }
                    if (confirm.ack()) {
                        return Sent.delivered();
                    }
                    return Sent.retry("rabbitmq: nack" + (confirm.reason() == null ? "" : ": " + confirm.reason()));
                })
                .completeOnTimeout(Sent.retry("rabbitmq: no confirm within " + timeout.toMillis() + " ms"),
                        Math.max(0, left), TimeUnit.NANOSECONDS);
    }

    private org.springframework.amqp.core.Message amqpMessage(Message message) {
        MessageProperties properties = new MessageProperties();
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        properties.setMessageId(Long.toString(message.id()));
        properties.setHeader("sdmq-topic", topic);
        properties.setHeader("sdmq-attempt", message.attempts());
        properties.setHeader("sdmq-due-time", message.dueTime());
        if (message.bizKey() != null) {
            properties.setHeader("sdmq-biz-key", message.bizKey());
        }
        return new org.springframework.amqp.core.Message(message.body().getBytes(StandardCharsets.UTF_8), properties);
    }

    /** Stops the template; the connection is Boot's and stays open for the other topics. */
    @Override
    public void close() {
        template.destroy();
    }
}
