package io.sdmq.client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sdmq.client.TestServer.freshTopic;
import static io.sdmq.client.TestServer.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

/** Every call of the client against the server jar: what it answers, and the exception of each refusal. */
class SdmqClientIT {
    private final SdmqClient client = SdmqClient.builder(TestServer.shared()).build();
    private final String topic = freshTopic();

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void a_pushed_message_is_delivered_with_its_fields_finished_and_not_delivered_again() {
        long before = System.currentTimeMillis();
        String id = client.push(PushMessage.builder(topic, "{\"order\":42}").bizKey("order-42").build());

        List<Delivered> got = client.get(topic, 10, Duration.ofSeconds(10));

        assertThat(got).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo(id).containsOnlyDigits();
            assertThat(m.topic()).isEqualTo(topic);
            assertThat(m.bizKey()).isEqualTo("order-42");
            assertThat(m.body()).isEqualTo("{\"order\":42}");
            assertThat(m.attempts()).isEqualTo(1);
            assertThat(m.dueTime()).isBetween(before - 1_000, System.currentTimeMillis());
        });
        client.finish(id);
        assertThat(client.get(topic, 1, Duration.ofSeconds(1))).isEmpty();
        assertThatThrownBy(() -> client.finish(id)).isInstanceOfSatisfying(SdmqClientException.Conflict.class,
                e -> assertThat(e.status()).isEqualTo(409));
    }

    @Test
    void a_nacked_message_comes_again_after_the_given_delay_or_after_its_own_retry_delay() {
        String id = client.push(PushMessage.builder(topic, "b").maxAttempts(5)
                .retryDelays(List.of(Duration.ofMillis(300))).build());
        assertThat(client.get(topic, 1, Duration.ofSeconds(10))).extracting(Delivered::id).containsExactly(id);

        client.nack(id, Duration.ZERO);
        assertThat(client.get(topic, 1, Duration.ofSeconds(10))).singleElement()
                .satisfies(m -> assertThat(m.attempts()).isEqualTo(2));

        long beforeNack = System.currentTimeMillis();
        client.nack(id, null);
        assertThat(client.get(topic, 1, Duration.ofSeconds(10))).singleElement().satisfies(m -> {
            assertThat(m.attempts()).isEqualTo(3);
            assertThat(m.dueTime()).isGreaterThanOrEqualTo(beforeNack + 300);
        });
    }

    @Test
    void finish_and_get_finishes_the_previous_batch_and_delivers_the_next_in_one_call() {
        List<String> first = client.pushAll(List.of(PushMessage.of(topic, "1"), PushMessage.of(topic, "2")));
        List<Delivered> reserved = new ArrayList<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> reserved.addAll(client.get(topic, 2, Duration.ofSeconds(1)))
                && reserved.size() == 2);
        String third = client.push(PushMessage.of(topic, "3"));
        long requests = client.stats().requests();

        FinishedAndDelivered done = client.finishAndGet(topic, List.of(first.get(0), "not-an-id", first.get(1)), 10,
                Duration.ofSeconds(10), Duration.ofMillis(20));

        assertThat(client.stats().requests() - requests).isEqualTo(1);
        assertThat(done.finished()).extracting(FinishOutcome::id, FinishOutcome::code).containsExactly(
                tuple(first.get(0), 200), tuple("not-an-id", 400), tuple(first.get(1), 200));
        assertThat(done.messages()).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo(third);
            assertThat(m.body()).isEqualTo("3");
        });
        FinishedAndDelivered last = client.finishAndGet(topic, List.of(third), 10, Duration.ofMillis(500),
                Duration.ZERO);
        assertThat(last.finished()).allMatch(FinishOutcome::finished);
        assertThat(last.messages()).isEmpty();
        assertThatThrownBy(() -> client.finish(third)).isInstanceOf(SdmqClientException.Conflict.class);
    }

    @Test
    void a_bad_count_in_finish_and_get_is_refused_naming_the_field_and_finishes_nothing() {
        String id = client.push(PushMessage.of(topic, "b"));
        assertThat(client.get(topic, 1, Duration.ofSeconds(10))).extracting(Delivered::id).containsExactly(id);

        assertThatThrownBy(() -> client.finishAndGet(topic, List.of(id), 0, Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOfSatisfying(SdmqClientException.InvalidRequest.class,
                        e -> assertThat(e.serverMessage()).startsWith("count"));

        client.finish(id);
    }

    @Test
    void a_message_nacked_as_dead_is_not_delivered_again_though_it_had_attempts_left() {
        String id = client.push(PushMessage.builder(topic, "b").maxAttempts(5)
                .retryDelays(List.of(Duration.ofMillis(100))).build());
        assertThat(client.get(topic, 1, Duration.ofSeconds(10))).extracting(Delivered::id).containsExactly(id);

        client.nackAsDead(id);

        assertNothingDeliveredFor(Duration.ofSeconds(1));
        assertThatThrownBy(() -> client.nackAsDead(id)).isInstanceOf(SdmqClientException.Conflict.class);
    }

    @Test
    void touch_extends_a_reservation_by_its_ttr() {
        String id = client.push(PushMessage.builder(topic, "b").ttr(Duration.ofSeconds(20)).build());
        client.get(topic, 1, Duration.ofSeconds(10));

        long before = System.currentTimeMillis();
        long deadline = client.touch(id);

        assertThat(deadline).isBetween(before + 19_000, System.currentTimeMillis() + 20_000);
        client.finish(id);
        assertThatThrownBy(() -> client.touch(id)).isInstanceOf(SdmqClientException.Conflict.class);
    }

    @Test
    void a_message_deleted_by_id_is_never_delivered_and_a_second_delete_conflicts() {
        String id = client.push(PushMessage.builder(topic, "b").delay(Duration.ofSeconds(1)).build());

        client.delete(id);

        assertNothingDeliveredFor(Duration.ofSeconds(2));
        assertThatThrownBy(() -> client.delete(id)).isInstanceOf(SdmqClientException.Conflict.class);
        assertThatThrownBy(() -> client.delete("123")).isInstanceOfSatisfying(SdmqClientException.NotFound.class,
                e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void a_message_deleted_by_topic_and_biz_key_is_never_delivered() {
        client.push(PushMessage.builder(topic, "b").bizKey("k-1").delay(Duration.ofSeconds(1)).build());

        client.delete(topic, "k-1");

        assertNothingDeliveredFor(Duration.ofSeconds(2));
        assertThatThrownBy(() -> client.delete(topic, "k-2")).isInstanceOf(SdmqClientException.NotFound.class);
    }

    @Test
    void a_message_rescheduled_by_a_delay_or_to_an_instant_keeps_its_id_and_comes_at_the_new_time() {
        String soon = client.push(PushMessage.builder(topic, "soon").delay(Duration.ofMinutes(10)).build());
        String later = client.push(PushMessage.builder(topic, "later").delay(Duration.ofMinutes(10)).build());
        Instant at = Instant.now().plusMillis(500);

        long soonDue = client.reschedule(soon, Duration.ZERO);
        long laterDue = client.reschedule(later, at);

        assertThat(soonDue).isLessThanOrEqualTo(System.currentTimeMillis());
        assertThat(laterDue).isEqualTo(at.toEpochMilli());
        assertThat(receive(client, topic, 2)).extracting(Delivered::id, Delivered::dueTime)
                .containsExactlyInAnyOrder(tuple(soon, soonDue),
                        tuple(later, laterDue));
        assertThatThrownBy(() -> client.reschedule(soon, Duration.ZERO))
                .isInstanceOf(SdmqClientException.Conflict.class);
    }

    @Test
    void a_batch_finish_answers_each_id_and_a_bad_id_among_good_ones_fails_only_itself() {
        List<String> ids = client.pushAll(List.of(PushMessage.of(topic, "1"), PushMessage.of(topic, "2")));
        List<Delivered> reserved = new ArrayList<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> reserved.addAll(client.get(topic, 2, Duration.ofSeconds(1)))
                && reserved.size() == 2);

        List<FinishOutcome> outcomes = client.finish(List.of(ids.get(0), "not-an-id", ids.get(1), "123"));

        assertThat(outcomes).extracting(FinishOutcome::id, FinishOutcome::code).containsExactly(
                tuple(ids.get(0), 200),
                tuple("not-an-id", 400),
                tuple(ids.get(1), 200), tuple("123", 404));
        assertThat(outcomes.get(1).message()).contains("jobId");
        assertThat(outcomes.get(3).message()).isNotBlank();
        assertNothingDeliveredFor(Duration.ofSeconds(1));
    }

    @Test
    void push_all_answers_the_ids_in_order_and_sends_each_duplicate_policy_in_a_call_of_its_own() {
        String held = client.push(PushMessage.builder(topic, "old").bizKey("k-2").delay(Duration.ofMinutes(5))
                .build());
        long requests = client.stats().requests();

        List<String> ids = client.pushAll(List.of(PushMessage.builder(topic, "one").bizKey("k-1").build(),
                PushMessage.builder(topic, "new").bizKey("k-2").onDuplicate(OnDuplicate.REPLACE).build(),
                PushMessage.of(topic, "three")));

        assertThat(client.stats().requests() - requests).isEqualTo(2);
        assertThat(ids.get(1)).isEqualTo(held);
        Map<String, String> bodyOfId = receive(client, topic, 3).stream()
                .collect(Collectors.toMap(Delivered::id, Delivered::body));
        assertThat(ids.stream().map(bodyOfId::get)).containsExactly("one", "new", "three");
        assertThat(client.push(PushMessage.builder(topic, "again").bizKey("k-1").build())).isEqualTo(ids.get(0));
    }

    @Test
    void a_bad_message_is_refused_with_400_naming_the_field_and_a_bad_batch_names_its_element() {
        assertThatThrownBy(() -> client.push(PushMessage.of("a b", "x")))
                .isInstanceOfSatisfying(SdmqClientException.InvalidRequest.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.serverMessage()).startsWith("topic: ");
                });
        assertThatThrownBy(() -> client.pushAll(List.of(PushMessage.of(topic, "good"),
                PushMessage.builder(topic, "bad").priority(-1).build())))
                .isInstanceOfSatisfying(SdmqClientException.InvalidRequest.class,
                        e -> assertThat(e.serverMessage()).contains("[1].priority"));
        assertNothingDeliveredFor(Duration.ofSeconds(1));
    }

    @Test
    void a_refused_call_is_not_retried() throws Exception {
        SdmqClient retrying = SdmqClient.builder(TestServer.shared()).maxRetries(5).build();
        long served = TestServer.requestsServed(TestServer.shared(), "/push/batch");
        try (retrying) {
            assertThatThrownBy(() -> retrying.pushAll(List.of(PushMessage.of("a b", "x"))))
                    .isInstanceOf(SdmqClientException.InvalidRequest.class);
            assertThatThrownBy(() -> retrying.delete("123")).isInstanceOf(SdmqClientException.NotFound.class);

            assertThat(retrying.stats().requests()).isEqualTo(2);
            assertThat(retrying.stats().retries()).isZero();
        }
        await().untilAsserted(() -> assertThat(TestServer.requestsServed(TestServer.shared(), "/push/batch"))
                .isEqualTo(served + 1));
    }

    private void assertNothingDeliveredFor(Duration quiet) {
        assertThat(client.get(topic, 10, quiet)).isEmpty();
    }
}
