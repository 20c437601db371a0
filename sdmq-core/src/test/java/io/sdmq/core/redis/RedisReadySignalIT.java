package io.sdmq.core.redis;

import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RedisReadySignalIT {
    private static final Duration QUIET = Duration.ofSeconds(2);

    private final RedisConnectionFactory factory = factory();
    final String prefix = TestServices.freshKeyPrefix();
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** The Redis under test: a single server here, a cluster in {@link RedisClusterReadySignalIT}. */
    RedisConnectionFactory factory() {
        return TestServices.redisConnectionFactory();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void other_instances_hear_each_topic_with_its_bucket_and_the_sender_does_not() {
        RedisReadySignal publisher = signal(prefix);
        RedisReadySignal other = signal(prefix);
        RedisReadySignal third = signal(prefix);
        Queue<String> heardBySender = subscribe(publisher);
        Queue<String> heardByOther = subscribe(other);
        Queue<String> heardByThird = subscribe(third);

        publisher.publish(7, List.of("order", "mail"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(heardByOther).containsExactly("7/order", "7/mail");
            assertThat(heardByThird).containsExactly("7/order", "7/mail");
        });
        await().during(Duration.ofMillis(300)).untilAsserted(() -> {
            assertThat(heardByOther).hasSize(2);
            assertThat(heardBySender).isEmpty();
        });
    }

    @Test
    void one_publish_is_one_message_on_the_channel_and_an_empty_one_is_none() {
        RedisReadySignal publisher = signal(prefix);
        Queue<String> raw = rawMessages(prefix + ":ready");

        publisher.publish(1, List.of());
        publisher.publish(2, List.of("order", "mail"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(raw).hasSize(1));
        assertThat(raw.peek()).matches("[0-9a-f-]{36}\n2\norder\nmail");
        await().during(Duration.ofMillis(300)).untilAsserted(() -> assertThat(raw).hasSize(1));
    }

    @Test
    void signals_of_another_prefix_are_not_heard() {
        RedisReadySignal foreign = signal(TestServices.freshKeyPrefix());
        Queue<String> heard = subscribe(signal(prefix));

        foreign.publish(0, List.of("order"));

        await().during(QUIET).atMost(QUIET.plusSeconds(1)).untilAsserted(() -> assertThat(heard).isEmpty());
    }

    @Test
    void a_failing_listener_does_not_stop_the_others() {
        RedisReadySignal publisher = signal(prefix);
        RedisReadySignal listener = signal(prefix);
        listener.subscribe((bucket, topic) -> {
            throw new IllegalStateException("listener broke on " + topic);
        });
        Queue<String> heard = subscribe(listener);

        publisher.publish(3, List.of("order", "mail"));

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(heard).containsExactly("3/order", "3/mail"));
    }

    @Test
    void a_closed_signal_hears_nothing_more() {
        RedisReadySignal publisher = signal(prefix);
        RedisReadySignal closed = signal(prefix);
        RedisReadySignal open = signal(prefix);
        Queue<String> heardByClosed = subscribe(closed);
        Queue<String> heardByOpen = subscribe(open);
        closed.close();

        publisher.publish(0, List.of("order"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(heardByOpen).containsExactly("0/order"));
        await().during(QUIET).atMost(QUIET.plusSeconds(1)).untilAsserted(() -> assertThat(heardByClosed).isEmpty());
    }

    @Test
    void a_signal_no_other_instance_hears_stops_publishing_until_its_probe_finds_a_newcomer() {
        RedisReadySignal publisher = signal(Duration.ofSeconds(5));
        subscribe(publisher);
        publisher.publish(0, List.of("first")); // nobody else listens: from now on it is alone
        Queue<String> newcomer = rawMessages(prefix + ":ready");
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            redis.convertAndSend(prefix + ":ready", "ping");
            return newcomer.contains("ping");
        });

        publisher.publish(0, List.of("skipped"));
        await().during(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(newcomer).noneMatch(m -> m.endsWith("skipped")));

        // the probe, once 5 s have passed, reaches the newcomer; from then on every publish goes out
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
            publisher.publish(0, List.of("probe"));
            return newcomer.stream().anyMatch(m -> m.endsWith("probe"));
        });
        publisher.publish(0, List.of("after"));
        await().atMost(Duration.ofSeconds(2)).until(() -> newcomer.stream().anyMatch(m -> m.endsWith("after")));
        assertThat(newcomer).noneMatch(m -> m.endsWith("skipped"));
    }

    /** A signal under {@link #prefix} whose probe, once it is alone, comes every {@code probe}. */
    RedisReadySignal signal(Duration probe) {
        RedisReadySignal signal = new RedisReadySignal(factory, prefix, probe);
        opened.add(signal);
        return signal;
    }

    private RedisReadySignal signal(String keyPrefix) {
        RedisReadySignal signal = new RedisReadySignal(factory, keyPrefix);
        opened.add(signal);
        return signal;
    }

    static Queue<String> subscribe(RedisReadySignal signal) {
        Queue<String> heard = new ConcurrentLinkedQueue<>();
        signal.subscribe((bucket, topic) -> heard.add(bucket + "/" + topic));
        return heard;
    }

    Queue<String> rawMessages(String channel) {
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
