package io.sdmq.server.delivery;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.Set;

/**
 * Delivery type {@code rabbitmq}: publishes a topic's messages to an exchange of the RabbitMQ that Spring Boot connects
 * to ({@code spring.rabbitmq.*}) and finishes each once the broker confirmed it and did not return it. Settings:
 * {@code exchange} (required; {@code ""} is the default exchange), {@code routingKey} (the topic's name when absent),
 * {@code timeout} (ms to wait for a confirm) and {@code concurrency} (most unconfirmed messages per instance).
 */
@Component
public class RabbitSinkType implements SinkType {
    static final String TYPE = "rabbitmq";
    /** AMQP 0-9-1 names (exchange, routing key) are short strings: at most 255 bytes. */
    private static final int MAX_NAME = 255;

    private final ConnectionFactory connectionFactory;

    public RabbitSinkType(ConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Map<String, Object> check(Map<String, Object> delivery) {
        DeliveryFields fields = new DeliveryFields(delivery, Set.of("exchange", "routingKey", "timeout",
                "concurrency"));
        fields.string("exchange", true, MAX_NAME);
        fields.string("routingKey", false, MAX_NAME);
        fields.integer("timeout", 10_000, 100, 60_000);
        fields.integer("concurrency", 256, 1, 10_000);
        return fields.checked();
    }

    /** Fails when Boot's connection factory lacks correlated publisher confirms or returns: nothing could finish. */
    @Override
    public Sink open(String topic, Map<String, Object> delivery) {
        if (!connectionFactory.isPublisherConfirms() || !connectionFactory.isPublisherReturns()) {
            throw new IllegalStateException("a rabbitmq delivery needs publisher confirms and returns: set "
                    + "spring.rabbitmq.publisher-confirm-type=correlated and spring.rabbitmq.publisher-returns=true");
        }
        String routingKey = (String) delivery.get("routingKey");
        return new RabbitSink(connectionFactory, topic, (String) delivery.get("exchange"),
                routingKey == null ? topic : routingKey);
    }
}
