package io.sdmq.server.delivery;

import io.sdmq.common.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes one topic's messages to a RabbitMQ exchange, persistent and mandatory, each with a {@link CorrelationData}
 * whose future the broker's publisher confirm completes (the broker acks in batches, asynchronously). The messages of
 * one pop go out on one channel, one after another, without waiting: a channel per message, as a plain template send
 * takes, goes back to Boot's cache only once its confirm arrived, so under load sends kept opening channels. A send is
 * delivered only when the confirm is an ack and the message was not returned as unroutable (a return always arrives
 * before its confirm); a return, a nack, or a broker that cannot be reached is a retry, and so is no confirm within
 * the timeout (the dispatcher's).
 */
final class RabbitSink implements Sink {
    private final RabbitTemplate template;
    private final String topic;
    private final String exchange;
    private final String routingKey;
    /** Makes each correlation id unique, as returns need: a message may be sent again while its return is late. */
    private final AtomicLong sends = new AtomicLong();

    RabbitSink(ConnectionFactory connectionFactory, String topic, String exchange, String routingKey) {
        this.template = new RabbitTemplate(connectionFactory);
        this.template.setMandatory(true);
        // a return is read from the send's CorrelationData; this callback only keeps the template from warning
        this.template.setReturnsCallback(returned -> { });
        this.topic = topic;
        this.exchange = exchange;
        this.routingKey = routingKey;
    }

    @Override
    public CompletableFuture<Sent> send(Message message) {
        return sendAll(List.of(message)).get(0);
    }

    /**
     * Publishes the messages on one channel in their order and answers each one's confirm. When a publish throws (no
     * connection, the channel closed), it and the ones after it are retries; those published before it are answered
     * by their confirms, or by the nacks Spring AMQP gives the pending confirms of a channel that closed.
     */
    @Override
    public List<CompletableFuture<Sent>> sendAll(List<Message> messages) {
        List<CorrelationData> correlations = messages.stream()
                .map(m -> new CorrelationData(m.id() + "-" + sends.incrementAndGet())).toList();
        int[] published = {0};
        String failure = null;
        try {
            template.invoke(operations -> {
                for (Message m : messages) {
                    operations.send(exchange, routingKey, amqpMessage(m), correlations.get(published[0]));
                    published[0]++;
                }
                return null;
            });
        } catch (RuntimeException e) {
            // an AmqpException above all; a send answers, it never throws
            failure = "rabbitmq: " + (e.getMessage() == null ? e.toString() : e.getMessage());
        }
        List<CompletableFuture<Sent>> outcomes = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            outcomes.add(i < published[0] ? outcome(correlations.get(i))
                    : CompletableFuture.completedFuture(Sent.retry(failure)));
        }
        return outcomes;
    }

    private static CompletableFuture<Sent> outcome(CorrelationData correlation) {
        return correlation.getFuture().handle((confirm, failure) -> {
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
        });
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
