package io.sdmq.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.sdmq.client.Delivered;
import io.sdmq.client.PushMessage;
import io.sdmq.client.SdmqClient;
import io.sdmq.spring.app.ListenerTestApp;
import io.sdmq.spring.app.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.sdmq.spring.TestServer.status;
import static io.sdmq.spring.TestServer.steps;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application using the starter against the server jar: its {@code @SdmqListener} methods receive what
 * its {@link SdmqTemplate} sends, and each message ends as the method's outcome says, in MySQL as {@code /job/{id}}
 * shows it.
 */
class SdmqListenerIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final URI server = TestServer.shared();
    private final String topic = TestServer.freshTopic();
    private ConfigurableApplicationContext app;

    @AfterEach
    void close() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void sent_messages_reach_the_listener_once_each_and_end_finished() {
        start(Map.of());
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> template().send(topic, "m-" + i)).toList();

        await().atMost(WAIT).untilAsserted(() -> assertThat(listener().received).hasSize(30));
        await().atMost(WAIT).untilAsserted(() -> assertThat(ids).allMatch(id -> "FINISHED".equals(status(server, id))));
        assertThat(listener().received).extracting(Delivered::id).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(listener().received).extracting(Delivered::attempts).containsOnly(1);
    }

    @Test
    void a_listener_taking_a_string_gets_the_body_and_an_object_is_sent_as_json() {
        start(Map.of());

        String id = template().convertAndSend(topic + "-text", Map.of("order", 42), Duration.ZERO);

        await().atMost(WAIT).untilAsserted(() -> assertThat(listener().texts).containsExactly("{\"order\":42}"));
        await().atMost(WAIT).until(() -> "FINISHED".equals(status(server, id)));
    }

    @Test
    void a_message_whose_method_throws_is_nacked_redelivered_after_its_backoff_and_then_finished() {
        start(Map.of());

        String id = template().send(PushMessage.builder(topic, "fail-once").maxAttempts(5)
                .retryDelays(List.of(Duration.ofMillis(300))).build());

        await().atMost(WAIT).until(() -> "FINISHED".equals(status(server, id)));
        List<Delivered> deliveries = listener().deliveries(id);
        assertThat(deliveries).extracting(Delivered::attempts).containsExactly(1, 2);
        assertThat(deliveries.get(1).dueTime() - deliveries.get(0).dueTime()).isGreaterThanOrEqualTo(300);
        assertThat(steps(server, id)).contains("RESERVED>DELAY", "RESERVED>FINISHED");
    }

    @Test
    void a_non_retryable_exception_or_a_type_the_annotation_names_makes_the_message_dead_at_once() {
        start(Map.of());

        String nonRetryable = template().send(PushMessage.builder(topic, "non-retryable").maxAttempts(5).build());
        String named = template().send(PushMessage.builder(topic, "illegal-argument").maxAttempts(5).build());

        await().atMost(WAIT).until(() -> "DEAD".equals(status(server, nonRetryable))
                && "DEAD".equals(status(server, named)));
        assertThat(TestServer.job(server, nonRetryable).path("attempts").asInt()).isEqualTo(1);
        assertThat(TestServer.job(server, named).path("attempts").asInt()).isEqualTo(1);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(listener().deliveries(nonRetryable)).hasSize(1);
            assertThat(listener().deliveries(named)).hasSize(1);
        });
    }

    @Test
    void a_handler_running_past_the_ttr_touches_its_message_which_is_not_handed_out_again() {
        start(Map.of("sdmq.client.listener.ttr", "2s"));

        String id = template().send(PushMessage.builder(topic, "sleep:3500").ttr(Duration.ofSeconds(2)).build());

        await().atMost(WAIT).until(() -> "FINISHED".equals(status(server, id)));
        assertThat(listener().deliveries(id)).hasSize(1);
        await().atMost(WAIT).untilAsserted(() -> assertThat(steps(server, id)).contains("RESERVED>RESERVED"));
        assertThat(steps(server, id)).doesNotContain("RESERVED>DELAY");
    }

    @Test
    void a_stop_lets_the_message_under_way_end_and_finishes_it() {
        start(Map.of());
        String id = template().send(topic, "sleep:1500");
        await().atMost(WAIT).until(() -> listener().deliveries(id).size() == 1);

        app.close();

        assertThat(status(server, id)).isEqualTo("FINISHED");
    }

    @Test
    void a_stopped_application_polls_no_more() {
        start(Map.of());
        RecordingListener listener = listener();
        app.close();

        try (SdmqClient other = SdmqClient.builder(server).build()) {
            String id = other.push(PushMessage.of(topic, "after the stop"));

            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> listener.received.isEmpty());
            assertThat(other.get(topic, 10, Duration.ofSeconds(5))).extracting(Delivered::id).containsExactly(id);
        }
    }

    @Test
    void the_meters_count_handled_and_failed_messages_and_time_them() {
        start(Map.of());
        String ok = template().send(topic, "fine");
        String dead = template().send(PushMessage.builder(topic, "non-retryable").build());

        await().atMost(WAIT).until(() -> "FINISHED".equals(status(server, ok)) && "DEAD".equals(status(server, dead)));

        MeterRegistry meters = app.getBean(MeterRegistry.class);
        assertThat(meters.get("sdmq.listener.handled").tag("topic", topic).counter().count()).isEqualTo(1);
        assertThat(meters.get("sdmq.listener.failed").tag("topic", topic).counter().count()).isEqualTo(1);
        assertThat(meters.get("sdmq.listener.processing").tag("topic", topic).timer().count()).isEqualTo(2);
        assertThat(meters.get("sdmq.listener.lateness").tag("topic", topic).timer().count()).isEqualTo(2);
    }

    private void start(Map<String, String> properties) {
        app = ListenerTestApp.run(server, topic, properties);
    }

    private SdmqTemplate template() {
        return app.getBean(SdmqTemplate.class);
    }

    private RecordingListener listener() {
        return app.getBean(RecordingListener.class);
    }
}
