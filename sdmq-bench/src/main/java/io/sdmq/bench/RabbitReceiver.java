package io.sdmq.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A RabbitMQ receiver: a direct exchange of the run's own and a server-named queue bound to it with the topic as its
 * routing key, consumed with automatic acks; tells the tracker of each message. Deletes both when closed.
 */
final class RabbitReceiver implements Receiver {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Connection connection;
    private final Channel channel;
    private final String exchange;
    private final String routingKey;

    RabbitReceiver(String url, String topic, Tracker tracker) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(url);
        connection = factory.newConnection("sdmq-bench");
        channel = connection.createChannel();
        exchange = "bench-" + topic;
        routingKey = topic;
        channel.exchangeDeclare(exchange, "direct", false, true, null);
        String queue = channel.queueDeclare("", false, true, true, null).getQueue();
        channel.queueBind(queue, exchange, routingKey);
        channel.basicConsume(queue, true, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                Object due = properties.getHeaders() == null ? null : properties.getHeaders().get("sdmq-due-time");
                Receiver.received(tracker, properties.getMessageId(), new String(body, StandardCharsets.UTF_8), due);
            }
        });
    }

    @Override
    public String delivery() {
        return JSON.writeValueAsString(Map.of("type", "rabbitmq", "exchange", exchange, "routingKey", routingKey));
    }

    @Override
    public void close() throws IOException {
        try {
            channel.exchangeDelete(exchange);
        } finally {
            connection.close();
        }
    }
}
