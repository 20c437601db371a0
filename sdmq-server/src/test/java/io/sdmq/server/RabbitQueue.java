package io.sdmq.server;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A fresh direct exchange on the test broker, reached without the server's proxy, with a fresh queue bound to it by
 * a routing key (or no queue: then every message to it is unroutable), and a consumer that records each message it
 * gets with the time it got it. {@link #close()} deletes both.
 */
final class RabbitQueue implements AutoCloseable {
    /** One message as the queue's consumer got it. */
    record Got(String id, String body, String topic, int attempt, long dueTime, String bizKey, boolean persistent,
               long receivedAt) {
    }

    private final CachingConnectionFactory factory = TestRabbit.connectionFactory();
    private final RabbitAdmin admin = new RabbitAdmin(factory);
    private final String exchange = "sdmq-it-" + UUID.randomUUID();
    private final String queue;
    private final List<Got> got = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, Integer> timesById = new ConcurrentHashMap<>();
    private SimpleMessageListenerContainer consumer;

    private RabbitQueue(String routingKey) {
        admin.declareExchange(new DirectExchange(exchange, false, false));
        if (routingKey == null) {
            queue = null;
            return;
        }
        queue = exchange + "-q";
        admin.declareQueue(new Queue(queue, false, false, false));
        Binding binding = BindingBuilder.bind(new Queue(queue)).to(new DirectExchange(exchange)).with(routingKey);
        admin.declareBinding(binding);
        consumer = new SimpleMessageListenerContainer(factory);
        consumer.setQueueNames(queue);
        consumer.setPrefetchCount(250);
        consumer.setMessageListener(this::record);
        consumer.start();
    }

    /** An exchange with a queue bound to it by {@code routingKey}, consumed from now on. */
    static RabbitQueue bound(String routingKey) {
        return new RabbitQueue(routingKey);
    }

    /** An exchange that routes nothing: no queue is bound to it. */
    static RabbitQueue unbound() {
        return new RabbitQueue(null);
    }

    String exchange() {
        return exchange;
    }

    List<Got> got() {
        return got;
    }

    /** How many times each id was consumed. */
    ConcurrentHashMap<String, Integer> timesById() {
        return timesById;
    }

    private void record(Message message) {
        long now = System.currentTimeMillis();
        var properties = message.getMessageProperties();
        String id = properties.getMessageId();
        got.add(new Got(id, new String(message.getBody(), StandardCharsets.UTF_8),
                (String) properties.getHeader("sdmq-topic"), ((Number) properties.getHeader("sdmq-attempt")).intValue(),
                ((Number) properties.getHeader("sdmq-due-time")).longValue(),
                (String) properties.getHeader("sdmq-biz-key"),
                properties.getReceivedDeliveryMode() == MessageDeliveryMode.PERSISTENT, now));
        timesById.merge(id, 1, Integer::sum);
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.stop();
            admin.deleteQueue(queue);
        }
        admin.deleteExchange(exchange);
        factory.destroy();
    }
}
