package io.sdmq.core.redis;

import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RedisReadySignalIT {
    private static final Duration QUIET = Duration.ofSeconds(2);

    private final RedisConnectionFactory factory = TestServices.redisConnectionFactory();
    private final String prefix = TestServices.freshKeyPrefix();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void every_instance_hears_each_published_topic_once() {
        RedisReadySignal publisher = signal(prefix);
        RedisReadySignal other = signal(prefix);
        Queue<String> heardHere = subscribe(publisher);
        Queue<String> heardThere = subscribe(other);

        publisher.publish(List.of("order", "mail"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(heardHere).containsExactly("order", "mail");
            assertThat(heardThere).containsExactly("order", "mail");
        });
        await().during(Duration.ofMillis(300)).untilAsserted(() -> assertThat(heardThere).hasSize(2));
    }

    @Test
    void one_publish_is_one_message_on_the_channel() {
        RedisReadySignal signal = signal(prefix);
        Queue<String> raw = rawMessages(prefix + ":ready");

        signal.publish(List.of());
        signal.publish(Set.of("order"));
        signal.publish(List.of("a", "b", "c"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(raw).containsExactly("order", "a\nb\nc"));
        await().during(Duration.ofMillis(300)).untilAsserted(() -> assertThat(raw).hasSize(2));
    }

    @Test
    void signals_of_another_prefix_are_not_heard() {
        RedisReadySignal mine = signal(prefix);
        RedisReadySignal foreign = signal(TestServices.freshKeyPrefix());
        Queue<String> heard = subscribe(mine);

        foreign.publish(List.of("order"));

        await().during(QUIET).atMost(QUIET.plusSeconds(1)).untilAsserted(() -> assertThat(heard).isEmpty());
    }

    @Test
    void a_failing_listener_does_not_stop_the_others() {
        RedisReadySignal signal = signal(prefix);
        signal.subscribe(topic -> {
            throw new IllegalStateException("listener broke on " + topic);
        });
        Queue<String> heard = subscribe(signal);

        signal.publish(List.of("order", "mail"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(heard).containsExactly("order", "mail"));
    }

    @Test
    void a_closed_signal_hears_nothing_more() {
        RedisReadySignal closed = signal(prefix);
        RedisReadySignal open = signal(prefix);
        Queue<String> heardByClosed = subscribe(closed);
        Queue<String> heardByOpen = subscribe(open);
        closed.close();

        open.publish(List.of("order"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(heardByOpen).containsExactly("order"));
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).untilAsserted(() -> assertThat(heardByClosed).isEmpty());
    }

    private RedisReadySignal signal(String keyPrefix) {
        RedisReadySignal signal = new RedisReadySignal(factory, keyPrefix);
        opened.add(signal);
        return signal;
    }

    private static Queue<String> subscribe(RedisReadySignal signal) {
        Queue<String> heard = new ConcurrentLinkedQueue<>();
        signal.subscribe(heard::add);
        return heard;
    }

    private Queue<String> rawMessages(String channel) {
        Queue<String> raw = new ConcurrentLinkedQueue<>();
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.afterPropertiesSet();
        container.start();
        container.addMessageListener((message, pattern) -> raw.add(new String(message.getBody(),
                StandardCharsets.UTF_8)), new ChannelTopic(channel));
        opened.add(container::destroy);
        return raw;
    }
}
