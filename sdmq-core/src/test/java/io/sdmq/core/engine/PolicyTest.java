package io.sdmq.core.engine;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.PushRequest;
import io.sdmq.common.SdmqException;
import io.sdmq.common.TooManyRequestsException;
import io.sdmq.common.Transition;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.Producer.PushOutcome;
import io.sdmq.core.Producer.PushResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** Retry policy, idempotency and the producer/consumer extras, step by step with a settable clock. */
class PolicyTest {
    private static final List<Long> BACKOFF = List.of(0L, 10_000L, 60_000L);
    private final EngineFixture f = new EngineFixture(4, 3, BACKOFF, 2);

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void a_message_never_finished_is_delivered_max_attempts_times_with_the_backoff_then_dead() {
        long id = f.engine.producer().push(new PushRequest("order", null, "b", 0L, null, null, 1_000L, 3, null), OnDuplicate.IGNORE).id();
        List<Long> deliveredAt = new ArrayList<>();
        for (int round = 0; round < 200 && deliveredAt.size() < 4; round++) {
            f.advance(100);
            f.popNow("order").forEach(m -> deliveredAt.add(f.clock.millis()));
        }

        assertThat(deliveredAt).hasSize(3);
        assertThat(deliveredAt.get(1) - deliveredAt.get(0)).isBetween(1_000L, 1_200L);
        assertThat(deliveredAt.get(2) - deliveredAt.get(1)).isBetween(11_000L, 11_200L);
        await().untilAsserted(() -> assertThat(f.messageLog.find(id).orElseThrow().status()).isEqualTo(DEAD));
        assertThat(f.messageLog.history(id)).extracting(Transition::to).filteredOn(s -> s == RESERVED).hasSize(3);
    }

    @Test
    void nack_redelivers_after_its_delay_or_the_policy_and_the_last_one_is_dead() {
        long id = f.push("order", null, 0);
        f.advance(0);
        assertThat(f.popNow("order")).hasSize(1);
        f.engine.consumer().nack(id, 5_000L);
        f.advance(4_999);
        assertThat(f.popNow("order")).isEmpty();
        f.advance(1);
        assertThat(f.popNow("order")).extracting(Message::attempts).containsExactly(2);
        f.engine.consumer().nack(id, null);
        f.advance(9_999);
        assertThat(f.popNow("order")).isEmpty();
        f.advance(1);
        assertThat(f.popNow("order")).extracting(Message::attempts).containsExactly(3);

        f.engine.consumer().nack(id, null);

        assertThat(f.messageLog.find(id).orElseThrow().status()).isEqualTo(DEAD);
        assertThatThrownBy(() -> f.engine.consumer().nack(id, null)).isInstanceOf(MessageStateException.class);
        assertThatThrownBy(() -> f.engine.consumer().nack(id, -1L)).isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("delay:");
    }

    @Test
    void nack_as_dead_makes_a_message_with_attempts_left_dead_at_once() {
        long id = f.push("order", null, 0);
        f.advance(0);
        assertThat(f.popNow("order")).extracting(Message::attempts).containsExactly(1);

        f.engine.consumer().nackAsDead(id);

        assertThat(f.messageLog.find(id).orElseThrow().status()).isEqualTo(DEAD);
        assertThat(f.messageLog.history(id)).last().satisfies(t -> assertThat(t.note()).contains("gave up"));
        f.advance(600_000);
        assertThat(f.popNow("order")).isEmpty();
        assertThatThrownBy(() -> f.engine.consumer().nackAsDead(id)).isInstanceOf(MessageStateException.class);
    }

    @Test
    void requeue_brings_a_dead_message_back_with_fresh_attempts() {
        long id = f.push("order", null, 0);
        for (int i = 0; i < 3; i++) {
            f.advance(60_000);
            assertThat(f.popNow("order")).hasSize(1);
            f.engine.consumer().nack(id, 0L);
        }
        assertThatThrownBy(() -> f.engine.admin().requeue(f.push("order", null, 600_000)))
                .isInstanceOf(MessageStateException.class);

        f.engine.admin().requeue(id);
        f.advance(0);

        assertThat(f.popNow("order")).extracting(Message::id, Message::attempts).containsExactly(
                tuple(id, 1));
        assertThatThrownBy(() -> f.engine.admin().requeue(424_242)).isInstanceOf(MessageNotFoundException.class);
    }

    @Test
    void a_batch_finish_answers_per_id_and_commits_the_finished_ones() {
        long a = f.push("order", null, 0);
        long b = f.push("order", null, 0);
        long pending = f.push("order", null, 600_000);
        f.advance(0);
        assertThat(f.popNow("order")).hasSize(2);

        List<Optional<SdmqException>> results =
                f.engine.consumer().finishAll(List.of(a, 424_242L, b, pending));

        assertThat(results.get(0)).isEmpty();
        assertThat(results.get(1)).containsInstanceOf(MessageNotFoundException.class);
        assertThat(results.get(2)).isEmpty();
        assertThat(results.get(3)).containsInstanceOf(MessageStateException.class);
        assertThat(f.messageLog.find(a).orElseThrow().status()).isEqualTo(FINISHED);
        assertThat(f.messageLog.find(b).orElseThrow().status()).isEqualTo(FINISHED);
    }

    @Test
    void a_delivered_finish_reaches_mysql_with_the_background_writer_behind_the_pop() {
        long a = f.push("order", null, 0);
        f.advance(0);
        assertThat(f.popNow("order")).hasSize(1);

        List<Optional<SdmqException>> results = f.engine.consumer().finishDelivered(List.of(a, 424_242L));

        assertThat(results.get(0)).isEmpty();
        assertThat(results.get(1)).containsInstanceOf(MessageNotFoundException.class);
        await().untilAsserted(() -> assertThat(f.messageLog.find(a).orElseThrow().status()).isEqualTo(FINISHED));
        assertThat(f.messageLog.history(a)).extracting(Transition::from, Transition::to)
                .endsWith(tuple(READY, RESERVED), tuple(RESERVED, FINISHED));
        f.advance(60_000);
        assertThat(f.popNow("order")).isEmpty();
    }

    @Test
    void touch_extends_the_reservation_by_the_ttr() {
        long id = f.engine.producer().push(new PushRequest("order", null, "b", 0L, null, null, 2_000L, null, null), OnDuplicate.IGNORE).id();
        f.advance(0);
        f.popNow("order");
        f.clock.advance(1_500);

        assertThat(f.engine.consumer().touch(id)).isEqualTo(T0 + 3_500);
        f.advance(1_000);
        assertThat(f.popNow("order")).isEmpty();
        f.advance(1_000);
        assertThat(f.popNow("order")).extracting(Message::id).containsExactly(id);
        assertThatThrownBy(() -> f.engine.consumer().touch(f.push("order", null, 60_000)))
                .isInstanceOf(MessageStateException.class);
    }

    @Test
    void reschedule_moves_a_pending_message_and_refuses_a_reserved_one() {
        long id = f.push("order", null, 60_000);

        assertThat(f.engine.producer().reschedule(id, 1_000L, null)).isEqualTo(T0 + 1_000);
        f.advance(1_000);
        assertThat(f.popNow("order")).extracting(Message::id).containsExactly(id);
        assertThatThrownBy(() -> f.engine.producer().reschedule(id, 1_000L, null)).isInstanceOf(MessageStateException.class)
                .hasMessageContaining("RESERVED");
        assertThatThrownBy(() -> f.engine.producer().reschedule(id, 1_000L, 5L)).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void a_duplicate_push_with_replace_debounces_body_and_time() {
        long id = f.push("order", "o-1", 60_000);
        PushResult replaced = f.engine.producer().push(new PushRequest("order", "o-1", "newer", 2_000L, null, null, null, null,
                null), OnDuplicate.REPLACE);

        assertThat(replaced).isEqualTo(new PushResult(id, PushOutcome.REPLACED));
        f.advance(2_000);
        List<Message> got = f.popNow("order");
        assertThat(got).extracting(Message::id, Message::body).containsExactly(
                tuple(id, "newer"));
        assertThat(f.messageLog.find(id).orElseThrow().message().body()).isEqualTo("newer");
        assertThatThrownBy(() -> f.engine.producer().push(new PushRequest("order", "o-1", "x", 0L, null, null, null, null, null),
                OnDuplicate.REPLACE)).isInstanceOf(MessageStateException.class);
    }

    @Test
    void delete_by_business_key_cancels_its_message() {
        long id = f.push("order", "o-9", 60_000);

        f.engine.producer().deleteByKey("order", "o-9");

        assertThat(f.messageLog.find(id).orElseThrow().status()).isEqualTo(DELETED);
        assertThatThrownBy(() -> f.engine.producer().deleteByKey("order", "o-10")).isInstanceOf(MessageNotFoundException.class);
    }

    @Test
    void a_business_key_alone_finds_its_messages_in_every_topic() {
        long order = f.push("order", "o-9", 60_000);
        long mail = f.push("mail", "o-9", 60_000);
        f.engine.producer().delete(mail);

        assertThat(f.engine.admin().messagesByKey("o-9"))
                .extracting(s -> s.message().id(), s -> s.status().isTerminal())
                .containsExactlyInAnyOrder(tuple(order, false), tuple(mail, true));
        assertThat(f.engine.admin().messagesByKey("o-10")).isEmpty();
        assertThatThrownBy(() -> f.engine.admin().messagesByKey("")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("bizKey: is required");
    }

    @Test
    void the_topics_of_ids_are_found_in_one_look_whatever_their_status_and_unknown_ids_are_left_out() {
        long order = f.push("order", null, 60_000);
        long mail = f.push("mail", null, 60_000);
        f.engine.producer().delete(mail);

        assertThat(f.engine.admin().topicsOf(List.of(order, mail, 42L)))
                .containsOnly(entry(order, "order"), entry(mail, "mail"));
        assertThat(f.engine.admin().topicsOf(List.of())).isEmpty();
    }

    @Test
    void a_batch_is_checked_whole_and_names_each_bad_element() {
        List<PushRequest> batch = List.of(
                new PushRequest("order", null, "a", 0L, null, null, null, null, null),
                new PushRequest("bad topic", null, "b", 0L, null, null, null, null, null),
                new PushRequest("order", null, "c", 0L, null, null, null, null, null),
                new PushRequest("order", null, null, 0L, null, null, null, null, null));

        assertThatThrownBy(() -> f.engine.producer().pushBatch(batch, OnDuplicate.IGNORE))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("messages: [1].topic: must match [A-Za-z0-9._-]{1,64}; [3].body: is required");
        assertThat(f.messageLog.findPending(0, 10)).isEmpty();

        List<PushResult> results = f.engine.producer().pushBatch(List.of(batch.get(0), batch.get(2)), OnDuplicate.IGNORE);
        assertThat(results).extracting(PushResult::outcome).containsOnly(PushOutcome.CREATED);
        assertThat(f.messageLog.findPending(0, 10)).hasSize(2);
    }

    @Test
    void a_topic_takes_only_so_many_waiting_consumers() {
        f.engine.consumer().pop("order", 1, Duration.ofSeconds(30), Duration.ZERO);
        f.engine.consumer().pop("order", 1, Duration.ofSeconds(30), Duration.ZERO);

        assertThatThrownBy(() -> f.engine.consumer().pop("order", 1, Duration.ofSeconds(30), Duration.ZERO))
                .isInstanceOf(TooManyRequestsException.class);
        assertThat(f.engine.consumer().pop("other", 1, Duration.ofMillis(10), Duration.ZERO).join()).isEmpty();
    }

    @Test
    void the_job_view_holds_status_and_history() {
        long id = f.push("order", null, 1_000);

        await().untilAsserted(() -> assertThat(f.engine.admin().message(id).history()).extracting(Transition::to)
                .containsExactly(WAIT_PUT, DELAY));
        assertThat(f.engine.admin().message(id).stored().message().dueTime()).isEqualTo(T0 + 1_000);
        assertThatThrownBy(() -> f.engine.admin().message(1)).isInstanceOf(MessageNotFoundException.class);
    }
}
