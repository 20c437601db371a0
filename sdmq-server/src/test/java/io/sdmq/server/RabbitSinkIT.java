package io.sdmq.server;

import io.sdmq.common.Message;
import io.sdmq.server.delivery.RabbitSinkType;
import io.sdmq.server.delivery.Sent;
import io.sdmq.server.delivery.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Exchange;
import org.springframework.amqp.core.HeadersExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The RabbitMQ sink's batch send ({@link Sink#sendAll}) against a real broker ({@link TestRabbit}): the messages of a
 * pop go out on one channel, and each is answered on its own, so one unroutable message fails only itself, and a
 * broker cut off while a batch is being published answers every message of it, none as delivered without a confirm.
 */
class RabbitSinkIT {
    private static final String TOPIC = "rabbit-sink";

    private final CachingConnectionFactory direct = TestRabbit.connectionFactory();
    private final RabbitAdmin admin = new RabbitAdmin(direct);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        direct.destroy();
    }

    @Test
    void in_a_batch_only_the_unroutable_message_is_retried_and_every_other_one_delivered_once() throws Exception {
        HeadersExchange exchange = new HeadersExchange("sdmq-it-" + UUID.randomUUID(), false, true);
        Queue queue = queueOf(exchange);
        admin.declareBinding(BindingBuilder.bind(queue).to(exchange).whereAll(Map.of("sdmq-biz-key", "routed"))
                .match());
        Sink sink = sink(TestRabbit.url().getPort(), exchange.getName());
        List<Message> batch = IntStream.range(0, 20).mapToObj(i -> aMessage().topic(TOPIC)
                .bizKey(i == 7 ? "nowhere" : "routed").body("m" + i).build()).toList();

        List<Sent> outcomes = outcomes(sink.sendAll(batch));

        for (int i = 0; i < batch.size(); i++) {
            if (i == 7) {
                assertThat(outcomes.get(i).outcome()).isEqualTo(Sent.Outcome.RETRY);
                assertThat(outcomes.get(i).note())
                        .isEqualTo(TestRabbit.embedded() ? "rabbitmq: nack" : "rabbitmq: unroutable: NO_ROUTE");
            } else {
                assertThat(outcomes.get(i)).as("message %d", i).isEqualTo(Sent.delivered());
            }
        }
        Set<String> expected = new HashSet<>();
        batch.stream().filter(m -> m.bizKey().equals("routed")).forEach(m -> expected.add(Long.toString(m.id())));
        assertThat(consumed(queue, expected.size())).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void a_broker_cut_off_mid_batch_answers_every_message_none_delivered_and_the_next_batch_goes_through()
            throws Exception {
        DirectExchange exchange = new DirectExchange("sdmq-it-" + UUID.randomUUID(), false, true);
        Queue queue = queueOf(exchange);
        admin.declareBinding(BindingBuilder.bind(queue).to(exchange).with(TOPIC));
        TcpProxy proxy = TcpProxy.to(TestRabbit.url().getHost(), TestRabbit.url().getPort());
        toClose.add(proxy);
        Sink sink = sink(proxy.port(), exchange.getName());
        assertThat(outcomes(sink.sendAll(List.of(aMessage().topic(TOPIC).build())))).containsExactly(Sent.delivered());

        // 4 000 messages of 8 KB, more than the loopback sockets buffer: the publishing blocks within the batch
        String body = "x".repeat(8 * 1024);
        List<Message> batch = IntStream.range(0, 4_000).mapToObj(i -> aMessage().topic(TOPIC).body(body).build())
                .toList();
        proxy.freeze();
        CompletableFuture<List<CompletableFuture<Sent>>> sending = CompletableFuture.supplyAsync(
                () -> sink.sendAll(batch));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !sending.isDone());
        proxy.cut();

        List<Sent> outcomes = outcomes(sending.get(30, TimeUnit.SECONDS));
        assertThat(outcomes).hasSize(batch.size()).allSatisfy(sent -> {
            assertThat(sent.outcome()).isEqualTo(Sent.Outcome.RETRY);
            assertThat(sent.note()).startsWith("rabbitmq: ");
        });

        proxy.restore();
        List<Message> next = IntStream.range(0, 10).mapToObj(i -> aMessage().topic(TOPIC).body("n" + i).build())
                .toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes(sink.sendAll(next)).stream()
                .allMatch(sent -> sent.equals(Sent.delivered())));
    }

    private Queue queueOf(Exchange exchange) {
        admin.declareExchange(exchange);
        Queue queue = new Queue(exchange.getName() + "-q", false, false, true);
        admin.declareQueue(queue);
        toClose.add(() -> {
            admin.deleteQueue(queue.getName());
            admin.deleteExchange(exchange.getName());
        });
        return queue;
    }

    /** A sink as the server opens one, on a connection with correlated confirms and returns to the broker's port. */
    private Sink sink(int port, String exchange) {
        CachingConnectionFactory factory = TestRabbit.connectionFactory();
        factory.setPort(port);
        factory.setPublisherConfirmType(CachingConnectionFactory.ConfirmType.CORRELATED);
        factory.setPublisherReturns(true);
        toClose.add(factory::destroy);
        RabbitSinkType type = new RabbitSinkType(factory);
        Sink sink = type.open(TOPIC, type.check(Map.of("type", "rabbitmq", "exchange", exchange)));
        toClose.add(sink);
        return sink;
    }

    private static List<Sent> outcomes(List<CompletableFuture<Sent>> futures) throws Exception {
        List<Sent> outcomes = new ArrayList<>(futures.size());
        for (CompletableFuture<Sent> future : futures) {
            outcomes.add(future.get(30, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    /** The message ids in the queue, waiting for {@code count} of them and a second more for any extra. */
    private List<String> consumed(Queue queue, int count) {
        RabbitTemplate template = new RabbitTemplate(direct);
        List<String> ids = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            drain(template, queue, ids);
            return ids.size() >= count;
        });
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> {
            drain(template, queue, ids);
            return true;
        });
        return ids;
    }

    private static void drain(RabbitTemplate template, Queue queue, List<String> ids) {
        for (var m = template.receive(queue.getName()); m != null; m = template.receive(queue.getName())) {
            ids.add(m.getMessageProperties().getMessageId());
        }
    }
}
