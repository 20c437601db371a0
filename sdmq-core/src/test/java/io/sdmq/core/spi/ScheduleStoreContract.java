package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.core.spi.ScheduleStore.ColdIds;
import io.sdmq.core.spi.ScheduleStore.Moved;
import io.sdmq.core.spi.ScheduleStore.MoveResult;
import io.sdmq.core.spi.ScheduleStore.RequeueResult;
import io.sdmq.core.spi.ScheduleStore.Requeued;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.sdmq.core.spi.MessageBuilder.NOW;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link ScheduleStore} does. An implementation's test extends this and returns a fresh, empty store
 * that uses {@link #DEFAULT_RETRY_DELAYS} as its server-default backoff.
 */
public abstract class ScheduleStoreContract {
    protected static final List<Long> DEFAULT_RETRY_DELAYS = List.of(0L, 10_000L, 60_000L);
    private static final int B = 0;

    protected ScheduleStore store;

    /** A fresh, empty store with {@code buckets} buckets, isolated from every other store. */
    protected abstract ScheduleStore newStore(int buckets);

    @BeforeEach
    void freshStore() {
        store = newStore(4);
    }

    @Test
    void a_fresh_store_has_its_buckets_and_nothing_in_them() {
        assertThat(store.buckets()).isEqualTo(4);
        assertThat(store.moveDue(B, NOW, 10)).isEqualTo(new MoveResult(List.of(), ScheduleStore.NONE));
        assertThat(store.requeueExpired(B, NOW, 10)).isEqualTo(new RequeueResult(List.of(), List.of(),
                ScheduleStore.NONE));
        assertThat(store.pop(B, "order", 5, NOW)).isEmpty();
        assertThat(store.readyTopics(B)).isEmpty();
        assertThat(store.readyCount(B, "order")).isZero();
    }

    @Test
    void buckets_have_distinct_names_and_do_not_share_messages() {
        assertThat(List.of(store.bucketName(0), store.bucketName(1), store.bucketName(2), store.bucketName(3)))
                .doesNotHaveDuplicates();
        Message m = aMessage().due(NOW).build();
        store.push(1, m);

        assertThat(store.moveDue(0, NOW, 10).moved()).isEmpty();
        assertThat(store.delete(2, m.id(), NOW)).isEmpty();
        assertThat(store.moveDue(1, NOW, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void pushed_message_is_not_moved_before_it_is_due() {
        Message m = aMessage().due(NOW + 5_000).build();
        store.push(B, m);

        assertThat(store.moveDue(B, NOW + 4_999, 10)).isEqualTo(new MoveResult(List.of(), NOW + 5_000));
        assertThat(store.moveDue(B, NOW + 5_000, 10))
                .isEqualTo(new MoveResult(List.of(new Moved(m.id(), "order")), ScheduleStore.NONE));
        assertThat(store.readyCount(B, "order")).isEqualTo(1);
    }

    @Test
    void replayed_push_changes_nothing() {
        Message m = aMessage().due(NOW + 1_000).body("first").build();
        store.push(B, m);

        boolean head = store.push(B, aMessage().id(m.id()).due(NOW).body("second").build());

        assertThat(head).isFalse();
        assertThat(store.moveDue(B, NOW + 999, 10).moved()).isEmpty();
        assertThat(store.moveDue(B, NOW + 1_000, 10).moved()).hasSize(1);
        assertThat(store.pop(B, "order", 10, NOW + 1_000)).containsExactly(m.withAttempts(1));
    }

    @Test
    void push_ahead_of_head_reports_new_head() {
        assertThat(store.push(B, aMessage().due(NOW + 10_000).build())).isTrue();
        assertThat(store.push(B, aMessage().due(NOW + 20_000).build())).isFalse();
        assertThat(store.push(B, aMessage().due(NOW + 5_000).build())).isTrue();
        assertThat(store.push(1, aMessage().due(NOW + 30_000).build())).isTrue();
    }

    @Test
    void a_batch_push_adds_every_new_message_and_leaves_those_already_there() {
        Message held = aMessage().due(NOW + 100).body("first").build();
        store.push(B, held);
        Message later = aMessage().due(NOW + 300).build();
        Message earlier = aMessage().due(NOW + 200).topic("mail").build();

        boolean head = store.push(B, List.of(later, aMessage().id(held.id()).due(NOW).body("second").build(), earlier));

        assertThat(head).isFalse();
        assertThat(store.moveDue(B, NOW + 1_000, 10).moved()).containsExactly(new Moved(held.id(), "order"),
                new Moved(earlier.id(), "mail"), new Moved(later.id(), "order"));
        assertThat(store.pop(B, "order", 10, NOW + 1_000)).containsExactly(held.withAttempts(1),
                later.withAttempts(1));
    }

    @Test
    void a_batch_push_reports_a_new_head_when_any_of_its_messages_is_the_earliest() {
        store.push(B, aMessage().due(NOW + 10_000).build());

        assertThat(store.push(B, List.of(aMessage().due(NOW + 20_000).build(), aMessage().due(NOW + 30_000).build())))
                .isFalse();
        assertThat(store.push(B, List.of(aMessage().due(NOW + 40_000).build(), aMessage().due(NOW + 5_000).build())))
                .isTrue();
        assertThat(store.push(B, List.of())).isFalse();
    }

    @Test
    void move_due_moves_in_score_order_and_reports_next_score() {
        Message late = aMessage().due(NOW + 300).topic("mail").build();
        Message early = aMessage().due(NOW + 100).build();
        Message middle = aMessage().due(NOW + 200).topic("mail").build();
        Message future = aMessage().due(NOW + 9_000).build();
        List.of(late, early, middle, future).forEach(m -> store.push(B, m));

        MoveResult result = store.moveDue(B, NOW + 1_000, 10);

        assertThat(result.moved()).containsExactly(new Moved(early.id(), "order"), new Moved(middle.id(), "mail"),
                new Moved(late.id(), "mail"));
        assertThat(result.nextScore()).isEqualTo(NOW + 9_000);
        assertThat(store.readyCount(B, "mail")).isEqualTo(2);
        assertThat(store.readyCount(B, "order")).isEqualTo(1);
    }

    @Test
    void move_due_respects_limit() {
        Message first = aMessage().due(NOW + 1).build();
        Message second = aMessage().due(NOW + 2).build();
        Message third = aMessage().due(NOW + 3).build();
        List.of(third, first, second).forEach(m -> store.push(B, m));

        MoveResult batch = store.moveDue(B, NOW + 10, 2);

        assertThat(batch.moved()).extracting(Moved::id).containsExactly(first.id(), second.id());
        assertThat(batch.nextScore()).isEqualTo(NOW + 3);
        assertThat(store.moveDue(B, NOW + 10, 2).moved()).extracting(Moved::id).containsExactly(third.id());
    }

    @Test
    void ready_topics_are_the_topics_with_ready_lists() {
        store.push(B, aMessage().topic("order").due(NOW).build());
        store.push(B, aMessage().topic("mail.v2").due(NOW).build());
        store.push(B, aMessage().topic("later").due(NOW + 1_000).build());
        store.push(1, aMessage().topic("other-bucket").due(NOW).build());
        store.moveDue(B, NOW, 10);
        store.moveDue(1, NOW, 10);

        assertThat(store.readyTopics(B)).containsExactlyInAnyOrder("order", "mail.v2");
    }

    @Test
    void pop_reserves_and_counts_attempts() {
        Message m = aMessage().due(NOW).ttr(5_000).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);

        assertThat(store.pop(B, "order", 1, NOW + 10)).containsExactly(m.withAttempts(1));
        assertThat(store.pop(B, "order", 1, NOW + 10)).isEmpty();
        assertThat(store.readyCount(B, "order")).isZero();
        assertThat(store.requeueExpired(B, NOW + 5_009, 10).nextDeadline()).isEqualTo(NOW + 5_010);
    }

    @Test
    void pop_takes_up_to_count_in_ready_order_from_its_topic_only() {
        Message a = aMessage().due(NOW + 1).build();
        Message b = aMessage().due(NOW + 2).build();
        Message c = aMessage().due(NOW + 3).build();
        Message mail = aMessage().topic("mail").due(NOW).build();
        List.of(c, mail, a, b).forEach(m -> store.push(B, m));
        store.moveDue(B, NOW + 10, 10);

        assertThat(store.pop(B, "order", 2, NOW + 10)).extracting(Message::id).containsExactly(a.id(), b.id());
        assertThat(store.pop(B, "order", 5, NOW + 10)).extracting(Message::id).containsExactly(c.id());
        assertThat(store.readyCount(B, "mail")).isEqualTo(1);
    }

    @Test
    void pop_skips_deleted_ids() {
        Message deleted = aMessage().due(NOW).build();
        Message kept = aMessage().due(NOW + 1).build();
        store.push(B, deleted);
        store.push(B, kept);
        store.moveDue(B, NOW + 1, 10);
        store.delete(B, deleted.id(), NOW);

        assertThat(store.readyCount(B, "order")).isEqualTo(2);
        assertThat(store.pop(B, "order", 1, NOW + 1)).containsExactly(kept.withAttempts(1));
        assertThat(store.readyCount(B, "order")).isZero();
    }

    @Test
    void popped_message_keeps_every_field() {
        Message m = aMessage().id(Long.MAX_VALUE - 1).topic("a.B_c-9").bizKey("order-42/ü").priority(999)
                .createdAt(NOW - 1).due(NOW).ttr(43_200_000).maxAttempts(100).retryDelays(0L, 2_592_000_000L)
                .body("{\"q\":\"\\\"/\\\\\n\t€😀\u0001\"} [] {} null").build();
        store.push(B, m);
        store.moveDue(B, NOW + 999, 10);

        assertThat(store.pop(B, m.topic(), 1, NOW + 999)).containsExactly(m.withAttempts(1));
    }

    @Test
    void message_without_biz_key_or_retry_delays_keeps_them_absent() {
        Message m = aMessage().bizKey(null).due(NOW).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);

        Message popped = store.pop(B, "order", 1, NOW).get(0);

        assertThat(popped.bizKey()).isNull();
        assertThat(popped.retryDelays()).isNull();
        assertThat(popped).isEqualTo(m.withAttempts(1));
    }

    @Test
    void finish_only_ends_reservations() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message ready = aMessage().due(NOW).build();
        store.push(B, delayed);
        store.push(B, ready);
        store.moveDue(B, NOW, 10);

        assertThat(store.finish(B, delayed.id(), NOW)).isFalse();
        assertThat(store.finish(B, ready.id(), NOW)).isFalse();
        assertThat(store.finish(B, 12_345L, NOW)).isFalse();
        store.pop(B, "order", 1, NOW);
        assertThat(store.finish(B, ready.id(), NOW)).isTrue();
        assertThat(store.finish(B, ready.id(), NOW)).isFalse();
        assertThat(store.delete(B, ready.id(), NOW)).isEmpty();
        assertThat(store.delete(B, delayed.id(), NOW)).contains(MessageStatus.DELAY);
    }

    @Test
    void finished_message_is_never_requeued() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);
        store.finish(B, m.id(), NOW);

        assertThat(store.requeueExpired(B, NOW + 60_000, 10))
                .isEqualTo(new RequeueResult(List.of(), List.of(), ScheduleStore.NONE));
        assertThat(store.moveDue(B, NOW + 600_000, 10).moved()).isEmpty();
    }

    @Test
    void delete_reports_where_the_message_was() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message ready = aMessage().due(NOW).build();
        Message reserved = aMessage().due(NOW).topic("mail").build();
        List.of(delayed, ready, reserved).forEach(m -> store.push(B, m));
        store.moveDue(B, NOW, 10);
        store.pop(B, "mail", 1, NOW);

        assertThat(store.delete(B, delayed.id(), NOW)).contains(MessageStatus.DELAY);
        assertThat(store.delete(B, ready.id(), NOW)).contains(MessageStatus.READY);
        assertThat(store.delete(B, reserved.id(), NOW)).contains(MessageStatus.RESERVED);
        assertThat(store.delete(B, reserved.id(), NOW)).isEmpty();
        assertThat(store.delete(B, 999L, NOW)).isEqualTo(Optional.empty());
    }

    @Test
    void deleted_messages_are_neither_moved_nor_requeued() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message reserved = aMessage().due(NOW).ttr(1_000).build();
        store.push(B, delayed);
        store.push(B, reserved);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);
        store.delete(B, delayed.id(), NOW);
        store.delete(B, reserved.id(), NOW);

        assertThat(store.moveDue(B, NOW + 10_000, 10)).isEqualTo(new MoveResult(List.of(), ScheduleStore.NONE));
        assertThat(store.requeueExpired(B, NOW + 10_000, 10).requeued()).isEmpty();
    }

    @Test
    void expired_reservation_is_requeued_with_backoff() {
        Message m = aMessage().due(NOW).ttr(2_000).retryDelays(1_000L, 5_000L).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);

        assertThat(store.requeueExpired(B, NOW + 1_999, 10))
                .isEqualTo(new RequeueResult(List.of(), List.of(), NOW + 2_000));
        assertThat(store.requeueExpired(B, NOW + 2_000, 10))
                .isEqualTo(new RequeueResult(List.of(new Requeued(m.id(), 1, NOW + 3_000)), List.of(),
                        ScheduleStore.NONE));
        assertThat(store.finish(B, m.id(), NOW)).isFalse();
        assertThat(store.moveDue(B, NOW + 2_999, 10).nextScore()).isEqualTo(NOW + 3_000);
        assertThat(store.moveDue(B, NOW + 3_000, 10).moved()).containsExactly(new Moved(m.id(), "order"));
        assertThat(store.pop(B, "order", 1, NOW + 3_000))
                .containsExactly(m.withDueTime(NOW + 3_000).withAttempts(2));
    }

    @Test
    void backoff_follows_the_delivery_count_and_stays_at_the_last_delay() {
        Message m = aMessage().due(NOW).ttr(1_000).maxAttempts(10).retryDelays(100L, 200L).build();
        store.push(B, m);
        long now = NOW;
        for (long expected : List.of(100L, 200L, 200L, 200L)) {
            store.moveDue(B, now, 10);
            assertThat(store.pop(B, "order", 1, now)).hasSize(1);
            now += 1_000;
            Requeued requeued = store.requeueExpired(B, now, 10).requeued().get(0);
            assertThat(requeued.dueTime()).isEqualTo(now + expected);
            now = requeued.dueTime();
        }
    }

    @Test
    void server_default_backoff_applies_when_the_message_has_none() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        store.push(B, m);
        long now = NOW;
        for (int delivery = 1; delivery <= 4; delivery++) {
            store.moveDue(B, now, 10);
            store.pop(B, "order", 1, now);
            now += 1_000;
            Requeued requeued = store.requeueExpired(B, now, 10).requeued().get(0);
            long expected = DEFAULT_RETRY_DELAYS.get(Math.min(delivery, DEFAULT_RETRY_DELAYS.size()) - 1);
            assertThat(requeued).isEqualTo(new Requeued(m.id(), delivery, now + expected));
            now = requeued.dueTime();
        }
    }

    @Test
    void exhausted_attempts_come_out_dead() {
        Message m = aMessage().due(NOW).ttr(1_000).maxAttempts(2).retryDelays(0L).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);
        assertThat(store.requeueExpired(B, NOW + 1_000, 10).requeued()).hasSize(1);
        store.moveDue(B, NOW + 1_000, 10);
        store.pop(B, "order", 1, NOW + 1_000);

        RequeueResult result = store.requeueExpired(B, NOW + 2_000, 10);

        assertThat(result).isEqualTo(new RequeueResult(List.of(),
                List.of(m.withDueTime(NOW + 1_000).withAttempts(2)), ScheduleStore.NONE));
        assertThat(store.delete(B, m.id(), NOW)).isEmpty();
        assertThat(store.moveDue(B, NOW + 100_000, 10).moved()).isEmpty();
    }

    @Test
    void requeued_message_keeps_its_priority_offset_in_the_score() {
        Message m = aMessage().due(NOW).priority(7).ttr(1_000).build();
        store.push(B, m);
        store.moveDue(B, NOW + 7, 10);
        store.pop(B, "order", 1, NOW + 7);
        Requeued requeued = store.requeueExpired(B, NOW + 1_007, 10).requeued().get(0);

        assertThat(requeued.dueTime()).isEqualTo(NOW + 1_007);
        assertThat(store.moveDue(B, NOW + 1_013, 10).moved()).isEmpty();
        assertThat(store.moveDue(B, NOW + 1_014, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void restore_writes_an_absent_message_at_the_given_score_and_leaves_a_present_one() {
        Message held = aMessage().due(NOW + 60_000).build();
        Message lost = aMessage().due(NOW + 60_000).build();
        store.push(B, held);

        assertThat(store.restore(B, held, NOW)).isEqualTo(ScheduleStore.Restored.PRESENT);
        assertThat(store.restore(B, lost, NOW + 5)).isEqualTo(ScheduleStore.Restored.WRITTEN);
        assertThat(store.restore(B, lost, NOW + 5)).isEqualTo(ScheduleStore.Restored.PRESENT);
        assertThat(store.holds(B, lost.id())).isTrue();
        assertThat(store.moveDue(B, NOW + 5, 10).moved()).containsExactly(new Moved(lost.id(), "order"));
    }

    @Test
    void a_batch_finish_answers_each_id_in_order_and_forgets_only_reserved_ones() {
        Message first = aMessage().due(NOW).build();
        Message second = aMessage().due(NOW).build();
        Message pending = aMessage().due(NOW + 60_000).build();
        store.push(B, List.of(first, second, pending));
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 2, NOW);

        List<Boolean> finished = store.finish(B, List.of(second.id(), pending.id(), first.id(), second.id()), NOW);

        assertThat(finished).containsExactly(true, false, true, false);
        assertThat(store.holds(B, first.id())).isFalse();
        assertThat(store.holds(B, second.id())).isFalse();
        assertThat(store.holds(B, pending.id())).isTrue();
        assertThat(store.restore(B, first, NOW)).isEqualTo(ScheduleStore.Restored.GONE);
        assertThat(store.finish(B, List.of(), NOW)).isEmpty();
    }

    @Test
    void a_batch_restore_answers_each_message_outcome_in_order() {
        Message held = aMessage().due(NOW + 60_000).build();
        Message finished = aMessage().due(NOW).build();
        Message lost = aMessage().due(NOW + 60_000).build();
        store.push(B, List.of(held, finished));
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);
        store.finish(B, finished.id(), NOW);

        List<ScheduleStore.Restored> outcomes = store.restore(B, List.of(new ScheduleStore.Restoring(lost, NOW + 7),
                new ScheduleStore.Restoring(held, NOW), new ScheduleStore.Restoring(finished, NOW)));

        assertThat(outcomes).containsExactly(ScheduleStore.Restored.WRITTEN, ScheduleStore.Restored.PRESENT,
                ScheduleStore.Restored.GONE);
        assertThat(store.restore(B, List.of())).isEmpty();
        assertThat(store.moveDue(B, NOW + 7, 10).moved()).containsExactly(new Moved(lost.id(), "order"));
    }

    @Test
    void a_restore_of_thousands_in_one_call_answers_every_message_in_order() {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            messages.add(aMessage().due(i == 2_400 ? NOW : NOW + 60_000).build());
        }
        List<Message> held = messages.subList(1_000, 1_010);
        store.push(B, held);
        Message finished = messages.get(2_400);
        store.push(B, finished);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);
        assertThat(store.finish(B, finished.id(), NOW)).isTrue();

        List<ScheduleStore.Restored> outcomes = store.restore(B, messages.stream()
                .map(m -> new ScheduleStore.Restoring(m, m.score())).toList());

        assertThat(outcomes).hasSize(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            ScheduleStore.Restored expected = held.contains(m) ? ScheduleStore.Restored.PRESENT
                    : m == finished ? ScheduleStore.Restored.GONE : ScheduleStore.Restored.WRITTEN;
            assertThat(outcomes.get(i)).as("message %d", i).isEqualTo(expected);
            assertThat(store.holds(B, m.id())).as("message %d", i).isEqualTo(m != finished);
        }
        assertThat(store.moveDue(B, NOW + 60_000, 5_000).moved()).hasSize(messages.size() - 1);
    }

    @Test
    void restore_skips_a_message_finished_deleted_or_dead_a_moment_ago() {
        Message finished = aMessage().due(NOW).build();
        Message deleted = aMessage().due(NOW).build();
        Message dead = aMessage().due(NOW).maxAttempts(1).ttr(1_000).build();
        store.push(B, finished);
        store.push(B, deleted);
        store.push(B, dead);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 3, NOW);
        store.finish(B, finished.id(), NOW);
        store.delete(B, deleted.id(), NOW);
        assertThat(store.requeueExpired(B, NOW + 1_000, 10).dead()).hasSize(1);

        for (Message m : List.of(finished, deleted, dead)) {
            assertThat(store.restore(B, m, NOW + 2_000)).isEqualTo(ScheduleStore.Restored.GONE);
            assertThat(store.holds(B, m.id())).isFalse();
        }
    }

    @Test
    void gone_ids_are_forgotten_after_a_while() {
        Message old = aMessage().due(NOW).build();
        Message later = aMessage().due(NOW).build();
        store.push(B, old);
        store.push(B, later);
        store.delete(B, old.id(), NOW);
        assertThat(store.delete(B, 42L, NOW + ScheduleStore.GONE_MS + 1)).isEmpty();
        assertThat(store.restore(B, old, NOW)).isEqualTo(ScheduleStore.Restored.GONE);
        store.delete(B, later.id(), NOW + ScheduleStore.GONE_MS + 1);

        assertThat(store.restore(B, old, NOW)).isEqualTo(ScheduleStore.Restored.WRITTEN);
    }

    @Test
    void a_message_pushed_at_or_after_cold_from_is_held_by_its_id_until_warmed() {
        Message hot = aMessage().due(NOW + 1_000).build();
        Message cold = aMessage().due(NOW + 5_000).body("kept in MySQL").build();

        assertThat(store.push(B, List.of(hot, cold), NOW + 5_000)).isTrue();

        assertThat(store.holds(B, cold.id())).isTrue();
        assertThat(store.moveDue(B, NOW + 10_000, 10)).isEqualTo(
                new MoveResult(List.of(new Moved(hot.id(), "order")), ScheduleStore.NONE));
        assertThat(store.coldUntil(B, NOW + 4_999, 10)).isEqualTo(new ColdIds(List.of(), NOW + 5_000));
        assertThat(store.coldUntil(B, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(cold.id()),
                ScheduleStore.NONE));
        assertThat(store.warm(B, List.of(cold))).containsExactly(true);
        assertThat(store.warm(B, List.of(cold))).containsExactly(false);
        assertThat(store.coldUntil(B, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(), ScheduleStore.NONE));
        assertThat(store.moveDue(B, NOW + 4_999, 10)).isEqualTo(new MoveResult(List.of(), NOW + 5_000));
        assertThat(store.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(cold.id(), "order"));
        assertThat(store.pop(B, "order", 10, NOW + 5_000)).containsExactly(hot.withAttempts(1),
                cold.withAttempts(1));
        assertThat(store.warm(B, List.of())).isEmpty();
    }

    @Test
    void cold_ids_come_earliest_first_up_to_the_limit() {
        Message third = aMessage().due(NOW + 3_000).build();
        Message first = aMessage().due(NOW + 1_000).build();
        Message second = aMessage().due(NOW + 2_000).build();
        store.push(B, List.of(third, first, second), NOW);

        assertThat(store.coldUntil(B, NOW + 5_000, 2)).isEqualTo(new ColdIds(List.of(first.id(), second.id()),
                NOW + 3_000));
        assertThat(store.coldUntil(B, NOW + 2_500, 10)).isEqualTo(new ColdIds(List.of(first.id(), second.id()),
                NOW + 3_000));
        assertThat(store.coldUntil(B + 1, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(), ScheduleStore.NONE));
    }

    @Test
    void a_cold_message_replayed_or_warmed_is_not_made_cold_again() {
        Message m = aMessage().due(NOW + 5_000).build();
        store.push(B, List.of(m), NOW);
        store.push(B, List.of(m), NOW);
        assertThat(store.coldUntil(B, NOW + 5_000, 10).ids()).containsExactly(m.id());
        store.warm(B, List.of(m));

        store.push(B, List.of(m), NOW);

        assertThat(store.coldUntil(B, NOW + 5_000, 10).ids()).isEmpty();
        assertThat(store.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void warming_a_message_held_whole_already_only_drops_its_cold_id() {
        Message m = aMessage().due(NOW + 5_000).build();
        store.push(B, List.of(m), NOW);
        store.push(B, m);
        store.moveDue(B, NOW + 5_000, 10);

        assertThat(store.warm(B, List.of(m))).containsExactly(true);

        assertThat(store.coldUntil(B, NOW + 5_000, 10).ids()).isEmpty();
        assertThat(store.moveDue(B, NOW + 5_000, 10).moved()).isEmpty();
        assertThat(store.pop(B, "order", 10, NOW + 5_000)).containsExactly(m.withAttempts(1));
    }

    @Test
    void a_deleted_cold_message_is_neither_warmed_nor_restored() {
        Message m = aMessage().due(NOW + 5_000).build();
        store.push(B, List.of(m), NOW);

        assertThat(store.delete(B, m.id(), NOW)).contains(MessageStatus.DELAY);

        assertThat(store.holds(B, m.id())).isFalse();
        assertThat(store.isEmpty(B)).isTrue();
        assertThat(store.warm(B, List.of(m))).containsExactly(false);
        assertThat(store.restore(B, m, m.score())).isEqualTo(ScheduleStore.Restored.GONE);
        assertThat(store.moveDue(B, NOW + 5_000, 10).moved()).isEmpty();
    }

    @Test
    void restore_puts_a_message_due_at_or_after_cold_from_back_cold() {
        Message far = aMessage().due(NOW + 5_000).build();
        Message near = aMessage().due(NOW + 1_000).build();

        List<ScheduleStore.Restored> outcomes = store.restore(B, List.of(new ScheduleStore.Restoring(far, far.score()),
                new ScheduleStore.Restoring(near, near.score())), NOW + 5_000);

        assertThat(outcomes).containsExactly(ScheduleStore.Restored.WRITTEN, ScheduleStore.Restored.WRITTEN);
        assertThat(store.coldUntil(B, NOW + 5_000, 10).ids()).containsExactly(far.id());
        assertThat(store.isEmpty(B)).isFalse();
        assertThat(store.restore(B, far, far.score())).isEqualTo(ScheduleStore.Restored.PRESENT);
        assertThat(store.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(near.id(), "order"));
    }

    @Test
    void a_bucket_is_empty_until_it_holds_a_message() {
        assertThat(store.isEmpty(B)).isTrue();
        Message m = aMessage().due(NOW).build();
        store.push(B, m);
        assertThat(store.isEmpty(B)).isFalse();
        assertThat(store.holds(B, m.id())).isTrue();
        assertThat(store.isEmpty(B + 1)).isTrue();
        store.delete(B, m.id(), NOW);
        assertThat(store.isEmpty(B)).isTrue();
    }

    @Test
    void nack_requeues_after_the_given_delay_or_the_retry_policy() {
        Message given = aMessage().due(NOW).priority(3).build();
        Message policy = aMessage().due(NOW).retryDelays(500L, 9_000L).build();
        store.push(B, given);
        store.push(B, policy);
        store.moveDue(B, NOW + 3, 10);
        store.pop(B, "order", 2, NOW + 3);

        ScheduleStore.Nacked byDelay = store.nack(B, given.id(), NOW + 10, 2_000L).orElseThrow();
        ScheduleStore.Nacked byPolicy = store.nack(B, policy.id(), NOW + 10, null).orElseThrow();

        assertThat(byDelay.dead()).isFalse();
        assertThat(byDelay.message().dueTime()).isEqualTo(NOW + 2_010);
        assertThat(byDelay.message().attempts()).isEqualTo(1);
        assertThat(byPolicy.message().dueTime()).isEqualTo(NOW + 510);
        assertThat(store.nack(B, given.id(), NOW + 20, 0L)).isEmpty();
        assertThat(store.moveDue(B, NOW + 2_012, 10).moved()).extracting(Moved::id).containsExactly(policy.id());
        assertThat(store.moveDue(B, NOW + 2_013, 10).moved()).extracting(Moved::id).containsExactly(given.id());
    }

    @Test
    void nack_of_the_last_attempt_is_dead() {
        Message m = aMessage().due(NOW).maxAttempts(1).build();
        store.push(B, m);
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);

        ScheduleStore.Nacked nacked = store.nack(B, m.id(), NOW + 1, null).orElseThrow();

        assertThat(nacked.dead()).isTrue();
        assertThat(store.holds(B, m.id())).isFalse();
        assertThat(store.restore(B, m, NOW)).isEqualTo(ScheduleStore.Restored.GONE);
    }

    @Test
    void touch_extends_only_a_reservation() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        store.push(B, m);
        assertThat(store.touch(B, m.id(), NOW)).isEmpty();
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 1, NOW);

        assertThat(store.touch(B, m.id(), NOW + 900)).hasValue(NOW + 1_900);
        assertThat(store.requeueExpired(B, NOW + 1_000, 10).requeued()).isEmpty();
        assertThat(store.requeueExpired(B, NOW + 1_900, 10).requeued()).hasSize(1);
    }

    @Test
    void reschedule_moves_only_a_pending_message_and_can_replace_its_body() {
        Message pending = aMessage().due(NOW + 10_000).priority(2).build();
        Message ready = aMessage().due(NOW).build();
        store.push(B, pending);
        store.push(B, ready);
        store.moveDue(B, NOW, 10);

        assertThat(store.reschedule(B, pending.id(), NOW + 100, "new body")).contains(MessageStatus.DELAY);
        assertThat(store.reschedule(B, ready.id(), NOW + 100, null)).contains(MessageStatus.READY);
        assertThat(store.reschedule(B, 4_242L, NOW + 100, null)).isEmpty();
        store.pop(B, "order", 1, NOW);
        assertThat(store.reschedule(B, ready.id(), NOW + 100, null)).contains(MessageStatus.RESERVED);
        assertThat(store.moveDue(B, NOW + 101, 10).moved()).isEmpty();
        assertThat(store.moveDue(B, NOW + 102, 10).moved()).extracting(Moved::id).containsExactly(pending.id());
        Message moved = store.pop(B, "order", 1, NOW + 102).get(0);
        assertThat(moved.body()).isEqualTo("new body");
        assertThat(moved.dueTime()).isEqualTo(NOW + 100);
    }

    @Test
    void requeue_respects_limit_and_takes_the_earliest_deadlines() {
        Message shortTtr = aMessage().due(NOW).ttr(1_000).build();
        Message midTtr = aMessage().due(NOW).ttr(2_000).build();
        Message longTtr = aMessage().due(NOW).ttr(3_000).build();
        List.of(shortTtr, midTtr, longTtr).forEach(m -> store.push(B, m));
        store.moveDue(B, NOW, 10);
        store.pop(B, "order", 3, NOW);

        RequeueResult result = store.requeueExpired(B, NOW + 5_000, 2);

        assertThat(result.requeued()).extracting(Requeued::id).containsExactly(shortTtr.id(), midTtr.id());
        assertThat(result.nextDeadline()).isEqualTo(NOW + 3_000);
    }

    @Test
    void priority_orders_messages_due_together() {
        Message low = aMessage().due(NOW).priority(5).build();
        Message first = aMessage().due(NOW).priority(0).build();
        Message mid = aMessage().due(NOW).priority(3).build();
        List.of(low, first, mid).forEach(m -> store.push(B, m));

        assertThat(store.moveDue(B, NOW + 3, 10).moved()).extracting(Moved::id).containsExactly(first.id(), mid.id());
        store.moveDue(B, NOW + 5, 10);
        assertThat(store.pop(B, "order", 3, NOW + 5)).extracting(Message::id)
                .containsExactly(first.id(), mid.id(), low.id());
    }
}
