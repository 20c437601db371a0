package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.core.spi.Reservations.RequeueResult;
import io.sdmq.core.spi.Reservations.Requeued;
import io.sdmq.core.spi.Schedule.ColdIds;
import io.sdmq.core.spi.Schedule.MoveResult;
import io.sdmq.core.spi.Schedule.Moved;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static io.sdmq.core.spi.MessageBuilder.NOW;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every implementation of the schedule ports ({@link Schedule}, {@link Reservations}, {@link RestoreTarget}) does.
 * An implementation's test extends this and returns fresh, empty stores of one deployment that use
 * {@link #DEFAULT_RETRY_DELAYS} as their server-default backoff and {@link #COLD_AFTER_MS} as their hot window.
 */
public abstract class ScheduleStoreContract {
    protected static final List<Long> DEFAULT_RETRY_DELAYS = List.of(0L, 10_000L, 60_000L);
    /** A year: a message pushed at {@code NOW} is never cold unless a test pushes it at an earlier {@code now}. */
    protected static final long COLD_AFTER_MS = 365L * 24 * 3_600_000;
    private static final int B = 0;

    protected Schedule schedule;
    protected Reservations reservations;
    protected RestoreTarget restores;

    /** The three ports of one fresh, empty store with {@code buckets} buckets, isolated from every other store. */
    public record Stores(Schedule schedule, Reservations reservations, RestoreTarget restores) {
    }

    protected abstract Stores newStores(int buckets);

    /** How long the implementation remembers a finished, deleted or dead id. */
    protected abstract long goneMs();

    @BeforeEach
    void freshStore() {
        Stores stores = newStores(4);
        schedule = stores.schedule();
        reservations = stores.reservations();
        restores = stores.restores();
    }

    protected boolean push(int bucket, Message message) {
        return push(bucket, List.of(message));
    }

    /** Pushes at {@code NOW}: hot. */
    protected boolean push(int bucket, List<Message> messages) {
        return schedule.push(bucket, messages, NOW);
    }

    protected RestoreTarget.Restored restore(int bucket, Message message, long score) {
        return restore(bucket, List.of(new RestoreTarget.Restoring(message, score))).get(0);
    }

    /** Restores at {@code NOW}: hot. */
    protected List<RestoreTarget.Restored> restore(int bucket, List<RestoreTarget.Restoring> messages) {
        return restores.restore(bucket, messages, NOW);
    }

    protected boolean finish(int bucket, long id, long now) {
        return reservations.finish(bucket, List.of(id), now).get(0).isPresent();
    }

    @Test
    void a_fresh_store_has_its_buckets_and_nothing_in_them() {
        assertThat(schedule.buckets()).isEqualTo(4);
        assertThat(schedule.moveDue(B, NOW, 10)).isEqualTo(new MoveResult(List.of(), Schedule.NONE));
        assertThat(reservations.requeueExpired(B, NOW, 10)).isEqualTo(new RequeueResult(List.of(), List.of(),
                Schedule.NONE));
        assertThat(reservations.pop(B, "order", 5, NOW, 0)).isEmpty();
        assertThat(reservations.readyTopics(B)).isEmpty();
        assertThat(reservations.readyCount(B, "order")).isZero();
    }

    @Test
    void buckets_have_distinct_names_and_do_not_share_messages() {
        assertThat(List.of(schedule.bucketName(0), schedule.bucketName(1), schedule.bucketName(2), schedule.bucketName(3)))
                .doesNotHaveDuplicates();
        Message m = aMessage().due(NOW).build();
        push(1, m);

        assertThat(schedule.moveDue(0, NOW, 10).moved()).isEmpty();
        assertThat(schedule.delete(2, m.id(), NOW)).isEmpty();
        assertThat(schedule.moveDue(1, NOW, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void pushed_message_is_not_moved_before_it_is_due() {
        Message m = aMessage().due(NOW + 5_000).build();
        push(B, m);

        assertThat(schedule.moveDue(B, NOW + 4_999, 10)).isEqualTo(new MoveResult(List.of(), NOW + 5_000));
        assertThat(schedule.moveDue(B, NOW + 5_000, 10))
                .isEqualTo(new MoveResult(List.of(new Moved(m.id(), "order")), Schedule.NONE));
        assertThat(reservations.readyCount(B, "order")).isEqualTo(1);
    }

    @Test
    void replayed_push_changes_nothing() {
        Message m = aMessage().due(NOW + 1_000).body("first").build();
        push(B, m);

        boolean head = push(B, aMessage().id(m.id()).due(NOW).body("second").build());

        assertThat(head).isFalse();
        assertThat(schedule.moveDue(B, NOW + 999, 10).moved()).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 1_000, 10).moved()).hasSize(1);
        assertThat(reservations.pop(B, "order", 10, NOW + 1_000, 0)).containsExactly(m.withAttempts(1));
    }

    @Test
    void push_ahead_of_head_reports_new_head() {
        assertThat(push(B, aMessage().due(NOW + 10_000).build())).isTrue();
        assertThat(push(B, aMessage().due(NOW + 20_000).build())).isFalse();
        assertThat(push(B, aMessage().due(NOW + 5_000).build())).isTrue();
        assertThat(push(1, aMessage().due(NOW + 30_000).build())).isTrue();
    }

    @Test
    void a_batch_push_adds_every_new_message_and_leaves_those_already_there() {
        Message held = aMessage().due(NOW + 100).body("first").build();
        push(B, held);
        Message later = aMessage().due(NOW + 300).build();
        Message earlier = aMessage().due(NOW + 200).topic("mail").build();

        boolean head = push(B, List.of(later, aMessage().id(held.id()).due(NOW).body("second").build(), earlier));

        assertThat(head).isFalse();
        assertThat(schedule.moveDue(B, NOW + 1_000, 10).moved()).containsExactly(new Moved(held.id(), "order"),
                new Moved(earlier.id(), "mail"), new Moved(later.id(), "order"));
        assertThat(reservations.pop(B, "order", 10, NOW + 1_000, 0)).containsExactly(held.withAttempts(1),
                later.withAttempts(1));
    }

    @Test
    void a_batch_push_reports_a_new_head_when_any_of_its_messages_is_the_earliest() {
        push(B, aMessage().due(NOW + 10_000).build());

        assertThat(push(B, List.of(aMessage().due(NOW + 20_000).build(), aMessage().due(NOW + 30_000).build())))
                .isFalse();
        assertThat(push(B, List.of(aMessage().due(NOW + 40_000).build(), aMessage().due(NOW + 5_000).build())))
                .isTrue();
        assertThat(push(B, List.of())).isFalse();
    }

    @Test
    void move_due_moves_in_score_order_and_reports_next_score() {
        Message late = aMessage().due(NOW + 300).topic("mail").build();
        Message early = aMessage().due(NOW + 100).build();
        Message middle = aMessage().due(NOW + 200).topic("mail").build();
        Message future = aMessage().due(NOW + 9_000).build();
        List.of(late, early, middle, future).forEach(m -> push(B, m));

        MoveResult result = schedule.moveDue(B, NOW + 1_000, 10);

        assertThat(result.moved()).containsExactly(new Moved(early.id(), "order"), new Moved(middle.id(), "mail"),
                new Moved(late.id(), "mail"));
        assertThat(result.nextScore()).isEqualTo(NOW + 9_000);
        assertThat(reservations.readyCount(B, "mail")).isEqualTo(2);
        assertThat(reservations.readyCount(B, "order")).isEqualTo(1);
    }

    @Test
    void move_due_respects_limit() {
        Message first = aMessage().due(NOW + 1).build();
        Message second = aMessage().due(NOW + 2).build();
        Message third = aMessage().due(NOW + 3).build();
        List.of(third, first, second).forEach(m -> push(B, m));

        MoveResult batch = schedule.moveDue(B, NOW + 10, 2);

        assertThat(batch.moved()).extracting(Moved::id).containsExactly(first.id(), second.id());
        assertThat(batch.nextScore()).isEqualTo(NOW + 3);
        assertThat(schedule.moveDue(B, NOW + 10, 2).moved()).extracting(Moved::id).containsExactly(third.id());
    }

    @Test
    void moving_several_buckets_together_moves_each_as_its_own_move_would() {
        Message a1 = aMessage().topic("order").due(NOW + 1).build();
        Message a2 = aMessage().topic("mail").due(NOW + 2).build();
        Message a3 = aMessage().topic("order").due(NOW + 3).build();
        Message b1 = aMessage().topic("order").due(NOW + 5).build();
        Message later = aMessage().topic("order").due(NOW + 50).build();
        push(0, List.of(a3, a1, a2));
        push(1, b1);
        push(3, later);

        List<MoveResult> results = schedule.moveDueEach(new int[] {0, 1, 2, 3}, NOW + 10, 2).stream()
                .map(Supplier::get).toList();

        assertThat(results).containsExactly(
                new MoveResult(List.of(new Moved(a1.id(), "order"), new Moved(a2.id(), "mail")), NOW + 3),
                new MoveResult(List.of(new Moved(b1.id(), "order")), Schedule.NONE),
                new MoveResult(List.of(), Schedule.NONE),
                new MoveResult(List.of(), NOW + 50));
        assertThat(reservations.readyCount(0, "order")).isEqualTo(1);
        assertThat(reservations.readyCount(0, "mail")).isEqualTo(1);
        assertThat(reservations.readyCount(1, "order")).isEqualTo(1);
        assertThat(schedule.moveDueEach(new int[] {0}, NOW + 10, 2).get(0).get().moved())
                .containsExactly(new Moved(a3.id(), "order"));
    }

    @Test
    void push_ready_adds_straight_to_the_ready_lists_in_order_and_a_replay_changes_nothing() {
        Message held = aMessage().topic("order").due(NOW).build();
        push(B, held);
        Message a = aMessage().topic("order").due(NOW).build();
        Message b = aMessage().topic("mail").due(NOW).build();
        Message c = aMessage().topic("order").due(NOW).build();

        assertThat(schedule.pushReady(B, List.of(held, a, b, c))).containsExactly(new Moved(a.id(), "order"),
                new Moved(b.id(), "mail"), new Moved(c.id(), "order"));
        assertThat(schedule.pushReady(B, List.of(a, b))).isEmpty();

        assertThat(reservations.readyTopics(B)).containsExactlyInAnyOrder("order", "mail");
        assertThat(schedule.moveDue(B, NOW, 10).moved()).containsExactly(new Moved(held.id(), "order"));
        assertThat(reservations.pop(B, "order", 10, NOW, 0)).containsExactly(a.withAttempts(1), c.withAttempts(1),
                held.withAttempts(1));
        assertThat(reservations.pop(B, "mail", 10, NOW, 0)).containsExactly(b.withAttempts(1));
    }

    @Test
    void ready_topics_are_the_topics_with_ready_lists() {
        push(B, aMessage().topic("order").due(NOW).build());
        push(B, aMessage().topic("mail.v2").due(NOW).build());
        push(B, aMessage().topic("later").due(NOW + 1_000).build());
        push(1, aMessage().topic("other-bucket").due(NOW).build());
        schedule.moveDue(B, NOW, 10);
        schedule.moveDue(1, NOW, 10);

        assertThat(reservations.readyTopics(B)).containsExactlyInAnyOrder("order", "mail.v2");
    }

    @Test
    void pop_reserves_and_counts_attempts() {
        Message m = aMessage().due(NOW).ttr(5_000).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);

        assertThat(reservations.pop(B, "order", 1, NOW + 10, 0)).containsExactly(m.withAttempts(1));
        assertThat(reservations.pop(B, "order", 1, NOW + 10, 0)).isEmpty();
        assertThat(reservations.readyCount(B, "order")).isZero();
        assertThat(reservations.requeueExpired(B, NOW + 5_009, 10).nextDeadline()).isEqualTo(NOW + 5_010);
    }

    @Test
    void pop_takes_up_to_count_in_ready_order_from_its_topic_only() {
        Message a = aMessage().due(NOW + 1).build();
        Message b = aMessage().due(NOW + 2).build();
        Message c = aMessage().due(NOW + 3).build();
        Message mail = aMessage().topic("mail").due(NOW).build();
        List.of(c, mail, a, b).forEach(m -> push(B, m));
        schedule.moveDue(B, NOW + 10, 10);

        assertThat(reservations.pop(B, "order", 2, NOW + 10, 0)).extracting(Message::id).containsExactly(a.id(), b.id());
        assertThat(reservations.pop(B, "order", 5, NOW + 10, 0)).extracting(Message::id).containsExactly(c.id());
        assertThat(reservations.readyCount(B, "mail")).isEqualTo(1);
    }

    @Test
    void pop_skips_deleted_ids() {
        Message deleted = aMessage().due(NOW).build();
        Message kept = aMessage().due(NOW + 1).build();
        push(B, deleted);
        push(B, kept);
        schedule.moveDue(B, NOW + 1, 10);
        schedule.delete(B, deleted.id(), NOW);

        assertThat(reservations.readyCount(B, "order")).isEqualTo(2);
        assertThat(reservations.pop(B, "order", 1, NOW + 1, 0)).containsExactly(kept.withAttempts(1));
        assertThat(reservations.readyCount(B, "order")).isZero();
    }

    @Test
    void popped_message_keeps_every_field() {
        Message m = aMessage().id(Long.MAX_VALUE - 1).topic("a.B_c-9").bizKey("order-42/ü").priority(999)
                .createdAt(NOW - 1).due(NOW).ttr(43_200_000).maxAttempts(100).retryDelays(0L, 2_592_000_000L)
                .body("{\"q\":\"\\\"/\\\\\n\t€😀\u0001\"} [] {} null").build();
        push(B, m);
        schedule.moveDue(B, NOW + 999, 10);

        assertThat(reservations.pop(B, m.topic(), 1, NOW + 999, 0)).containsExactly(m.withAttempts(1));
    }

    @Test
    void message_without_biz_key_or_retry_delays_keeps_them_absent() {
        Message m = aMessage().bizKey(null).due(NOW).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);

        Message popped = reservations.pop(B, "order", 1, NOW, 0).get(0);

        assertThat(popped.bizKey()).isNull();
        assertThat(popped.retryDelays()).isNull();
        assertThat(popped).isEqualTo(m.withAttempts(1));
    }

    @Test
    void finish_only_ends_reservations() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message ready = aMessage().due(NOW).build();
        push(B, delayed);
        push(B, ready);
        schedule.moveDue(B, NOW, 10);

        assertThat(finish(B, delayed.id(), NOW)).isFalse();
        assertThat(finish(B, ready.id(), NOW)).isFalse();
        assertThat(finish(B, 12_345L, NOW)).isFalse();
        reservations.pop(B, "order", 1, NOW, 0);
        assertThat(finish(B, ready.id(), NOW)).isTrue();
        assertThat(finish(B, ready.id(), NOW)).isFalse();
        assertThat(schedule.delete(B, ready.id(), NOW)).isEmpty();
        assertThat(schedule.delete(B, delayed.id(), NOW)).contains(MessageStatus.DELAY);
    }

    @Test
    void finished_message_is_never_requeued() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);
        finish(B, m.id(), NOW);

        assertThat(reservations.requeueExpired(B, NOW + 60_000, 10))
                .isEqualTo(new RequeueResult(List.of(), List.of(), Schedule.NONE));
        assertThat(schedule.moveDue(B, NOW + 600_000, 10).moved()).isEmpty();
    }

    @Test
    void delete_reports_where_the_message_was() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message ready = aMessage().due(NOW).build();
        Message reserved = aMessage().due(NOW).topic("mail").build();
        List.of(delayed, ready, reserved).forEach(m -> push(B, m));
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "mail", 1, NOW, 0);

        assertThat(schedule.delete(B, delayed.id(), NOW)).contains(MessageStatus.DELAY);
        assertThat(schedule.delete(B, ready.id(), NOW)).contains(MessageStatus.READY);
        assertThat(schedule.delete(B, reserved.id(), NOW)).contains(MessageStatus.RESERVED);
        assertThat(schedule.delete(B, reserved.id(), NOW)).isEmpty();
        assertThat(schedule.delete(B, 999L, NOW)).isEqualTo(Optional.empty());
    }

    @Test
    void delete_all_and_reschedule_all_answer_per_id_in_one_step() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message later = aMessage().due(NOW + 2_000).priority(3).build();
        Message ready = aMessage().due(NOW).build();
        Message reserved = aMessage().due(NOW).topic("mail").build();
        List.of(delayed, later, ready, reserved).forEach(m -> push(B, m));
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "mail", 1, NOW, 0);

        assertThat(schedule.rescheduleAll(B, List.of(later.id(), ready.id(), 999L, reserved.id()), NOW + 500))
                .containsExactly(Optional.of(MessageStatus.DELAY), Optional.of(MessageStatus.READY), Optional.empty(),
                        Optional.of(MessageStatus.RESERVED));
        assertThat(schedule.moveDue(B, NOW + 503, 10).moved()).extracting(Moved::id).containsExactly(later.id());
        assertThat(schedule.deleteAll(B, List.of(delayed.id(), 999L, ready.id(), reserved.id(), delayed.id()), NOW))
                .containsExactly(Optional.of(MessageStatus.DELAY), Optional.empty(), Optional.of(MessageStatus.READY),
                        Optional.of(MessageStatus.RESERVED), Optional.empty());
        assertThat(schedule.moveDue(B, NOW + 600_000, 10).moved()).isEmpty();
    }

    @Test
    void deleted_messages_are_neither_moved_nor_requeued() {
        Message delayed = aMessage().due(NOW + 1_000).build();
        Message reserved = aMessage().due(NOW).ttr(1_000).build();
        push(B, delayed);
        push(B, reserved);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);
        schedule.delete(B, delayed.id(), NOW);
        schedule.delete(B, reserved.id(), NOW);

        assertThat(schedule.moveDue(B, NOW + 10_000, 10)).isEqualTo(new MoveResult(List.of(), Schedule.NONE));
        assertThat(reservations.requeueExpired(B, NOW + 10_000, 10).requeued()).isEmpty();
    }

    @Test
    void expired_reservation_is_requeued_with_backoff() {
        Message m = aMessage().due(NOW).ttr(2_000).retryDelays(1_000L, 5_000L).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);

        assertThat(reservations.requeueExpired(B, NOW + 1_999, 10))
                .isEqualTo(new RequeueResult(List.of(), List.of(), NOW + 2_000));
        assertThat(reservations.requeueExpired(B, NOW + 2_000, 10))
                .isEqualTo(new RequeueResult(List.of(new Requeued(m.id(), "order", 1, NOW + 3_000)), List.of(),
                        Schedule.NONE));
        assertThat(finish(B, m.id(), NOW)).isFalse();
        assertThat(schedule.moveDue(B, NOW + 2_999, 10).nextScore()).isEqualTo(NOW + 3_000);
        assertThat(schedule.moveDue(B, NOW + 3_000, 10).moved()).containsExactly(new Moved(m.id(), "order"));
        assertThat(reservations.pop(B, "order", 1, NOW + 3_000, 0))
                .containsExactly(m.withDueTime(NOW + 3_000).withAttempts(2));
    }

    @Test
    void backoff_follows_the_delivery_count_and_stays_at_the_last_delay() {
        Message m = aMessage().due(NOW).ttr(1_000).maxAttempts(10).retryDelays(100L, 200L).build();
        push(B, m);
        long now = NOW;
        for (long expected : List.of(100L, 200L, 200L, 200L)) {
            schedule.moveDue(B, now, 10);
            assertThat(reservations.pop(B, "order", 1, now, 0)).hasSize(1);
            now += 1_000;
            Requeued requeued = reservations.requeueExpired(B, now, 10).requeued().get(0);
            assertThat(requeued.dueTime()).isEqualTo(now + expected);
            now = requeued.dueTime();
        }
    }

    @Test
    void server_default_backoff_applies_when_the_message_has_none() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        push(B, m);
        long now = NOW;
        for (int delivery = 1; delivery <= 4; delivery++) {
            schedule.moveDue(B, now, 10);
            reservations.pop(B, "order", 1, now, 0);
            now += 1_000;
            Requeued requeued = reservations.requeueExpired(B, now, 10).requeued().get(0);
            long expected = DEFAULT_RETRY_DELAYS.get(Math.min(delivery, DEFAULT_RETRY_DELAYS.size()) - 1);
            assertThat(requeued).isEqualTo(new Requeued(m.id(), "order", delivery, now + expected));
            now = requeued.dueTime();
        }
    }

    @Test
    void exhausted_attempts_come_out_dead() {
        Message m = aMessage().due(NOW).ttr(1_000).maxAttempts(2).retryDelays(0L).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);
        assertThat(reservations.requeueExpired(B, NOW + 1_000, 10).requeued()).hasSize(1);
        schedule.moveDue(B, NOW + 1_000, 10);
        reservations.pop(B, "order", 1, NOW + 1_000, 0);

        RequeueResult result = reservations.requeueExpired(B, NOW + 2_000, 10);

        assertThat(result).isEqualTo(new RequeueResult(List.of(),
                List.of(m.withDueTime(NOW + 1_000).withAttempts(2)), Schedule.NONE));
        assertThat(schedule.delete(B, m.id(), NOW)).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 100_000, 10).moved()).isEmpty();
    }

    @Test
    void requeued_message_keeps_its_priority_offset_in_the_score() {
        Message m = aMessage().due(NOW).priority(7).ttr(1_000).build();
        push(B, m);
        schedule.moveDue(B, NOW + 7, 10);
        reservations.pop(B, "order", 1, NOW + 7, 0);
        Requeued requeued = reservations.requeueExpired(B, NOW + 1_007, 10).requeued().get(0);

        assertThat(requeued.dueTime()).isEqualTo(NOW + 1_007);
        assertThat(schedule.moveDue(B, NOW + 1_013, 10).moved()).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 1_014, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void restore_writes_an_absent_message_at_the_given_score_and_leaves_a_present_one() {
        Message held = aMessage().due(NOW + 60_000).build();
        Message lost = aMessage().due(NOW + 60_000).build();
        push(B, held);

        assertThat(restore(B, held, NOW)).isEqualTo(RestoreTarget.Restored.PRESENT);
        assertThat(restore(B, lost, NOW + 5)).isEqualTo(RestoreTarget.Restored.WRITTEN);
        assertThat(restore(B, lost, NOW + 5)).isEqualTo(RestoreTarget.Restored.PRESENT);
        assertThat(restores.holds(B, lost.id())).isTrue();
        assertThat(schedule.moveDue(B, NOW + 5, 10).moved()).containsExactly(new Moved(lost.id(), "order"));
    }

    @Test
    void pushing_and_finishing_in_several_buckets_together_does_what_each_bucket_alone_would() {
        Message a = aMessage().topic("order").due(NOW + 5).build();
        Message b = aMessage().topic("mail").due(NOW).build();
        Message c = aMessage().topic("order").due(NOW).build();

        List<Boolean> heads = schedule.pushEach(new int[] {0, 2}, List.of(List.of(a), List.of(b, c)), NOW).stream()
                .map(Supplier::get).toList();

        assertThat(heads).containsExactly(true, true);
        assertThat(schedule.pushEach(new int[] {0, 2}, List.of(List.of(a), List.of(c)), NOW).stream()
                .map(Supplier::get)).containsExactly(false, false);
        assertThat(schedule.moveDue(0, NOW + 5, 10).moved()).containsExactly(new Moved(a.id(), "order"));
        assertThat(schedule.moveDue(2, NOW + 5, 10).moved()).containsExactly(new Moved(b.id(), "mail"),
                new Moved(c.id(), "order"));
        reservations.pop(0, "order", 1, NOW + 5, 0);
        reservations.pop(2, "order", 1, NOW + 5, 0);

        List<List<Optional<String>>> finished = reservations.finishEach(new int[] {0, 2},
                List.of(List.of(a.id()), List.of(b.id(), c.id())), NOW + 5).stream().map(Supplier::get).toList();

        assertThat(finished).containsExactly(List.of(Optional.of("order")),
                List.of(Optional.empty(), Optional.of("order")));
        assertThat(restores.holds(0, a.id())).isFalse();
        assertThat(restores.holds(2, b.id())).isTrue();
        assertThat(restores.holds(2, c.id())).isFalse();
    }

    @Test
    void popping_several_buckets_together_takes_each_in_turn_up_to_what_the_ones_before_left() {
        Message a = aMessage().due(NOW).ttr(1_000).build();
        Message b = aMessage().due(NOW).ttr(1_000).build();
        Message c = aMessage().due(NOW).ttr(1_000).build();
        Message d = aMessage().due(NOW).ttr(1_000).build();
        push(0, List.of(a, b));
        push(1, d);
        push(2, c);
        for (int bucket = 0; bucket < 3; bucket++) {
            schedule.moveDue(bucket, NOW, 10);
        }

        List<List<Message>> first = reservations.popEach(new int[] {2, 0, 1}, "order", 2, NOW, NOW + 60_000)
                .stream().map(Supplier::get).toList();

        assertThat(first).containsExactly(List.of(c.withAttempts(1)), List.of(a.withAttempts(1)));
        assertThat(reservations.readyCount(0, "order")).isEqualTo(1);
        assertThat(reservations.readyCount(1, "order")).isEqualTo(1);
        assertThat(reservations.popEach(new int[] {0, 1, 2}, "order", 5, NOW, 0).stream().map(Supplier::get))
                .containsExactly(List.of(b.withAttempts(1)), List.of(d.withAttempts(1)), List.of());
        assertThat(reservations.requeueExpired(0, NOW + 1_000, 10).requeued()).extracting(Requeued::id)
                .containsExactly(b.id());
        assertThat(reservations.requeueExpired(2, NOW + 59_999, 10).requeued()).isEmpty();
        assertThat(reservations.requeueExpired(2, NOW + 60_000, 10).requeued()).extracting(Requeued::id)
                .containsExactly(c.id());
    }

    @Test
    void a_batch_finish_answers_the_topic_of_each_id_in_order_and_forgets_only_reserved_ones() {
        Message first = aMessage().due(NOW).build();
        Message second = aMessage().due(NOW).build();
        Message pending = aMessage().due(NOW + 60_000).build();
        push(B, List.of(first, second, pending));
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 2, NOW, 0);

        List<Optional<String>> finished =
                reservations.finish(B, List.of(second.id(), pending.id(), first.id(), second.id()), NOW);

        assertThat(finished).containsExactly(Optional.of("order"), Optional.empty(), Optional.of("order"),
                Optional.empty());
        assertThat(restores.holds(B, first.id())).isFalse();
        assertThat(restores.holds(B, second.id())).isFalse();
        assertThat(restores.holds(B, pending.id())).isTrue();
        assertThat(restore(B, first, NOW)).isEqualTo(RestoreTarget.Restored.GONE);
        assertThat(reservations.finish(B, List.of(), NOW)).isEmpty();
    }

    @Test
    void a_batch_restore_answers_each_message_outcome_in_order() {
        Message held = aMessage().due(NOW + 60_000).build();
        Message finished = aMessage().due(NOW).build();
        Message lost = aMessage().due(NOW + 60_000).build();
        push(B, List.of(held, finished));
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);
        finish(B, finished.id(), NOW);

        List<RestoreTarget.Restored> outcomes = restore(B, List.of(new RestoreTarget.Restoring(lost, NOW + 7),
                new RestoreTarget.Restoring(held, NOW), new RestoreTarget.Restoring(finished, NOW)));

        assertThat(outcomes).containsExactly(RestoreTarget.Restored.WRITTEN, RestoreTarget.Restored.PRESENT,
                RestoreTarget.Restored.GONE);
        assertThat(restore(B, List.of())).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 7, 10).moved()).containsExactly(new Moved(lost.id(), "order"));
    }

    @Test
    void a_restore_of_thousands_in_one_call_answers_every_message_in_order() {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            messages.add(aMessage().due(i == 2_400 ? NOW : NOW + 60_000).build());
        }
        List<Message> held = messages.subList(1_000, 1_010);
        push(B, held);
        Message finished = messages.get(2_400);
        push(B, finished);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);
        assertThat(finish(B, finished.id(), NOW)).isTrue();

        List<RestoreTarget.Restored> outcomes = restore(B, messages.stream()
                .map(m -> new RestoreTarget.Restoring(m, m.score())).toList());

        assertThat(outcomes).hasSize(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            RestoreTarget.Restored expected = held.contains(m) ? RestoreTarget.Restored.PRESENT
                    : m == finished ? RestoreTarget.Restored.GONE : RestoreTarget.Restored.WRITTEN;
            assertThat(outcomes.get(i)).as("message %d", i).isEqualTo(expected);
            assertThat(restores.holds(B, m.id())).as("message %d", i).isEqualTo(m != finished);
        }
        assertThat(schedule.moveDue(B, NOW + 60_000, 5_000).moved()).hasSize(messages.size() - 1);
    }

    @Test
    void restore_skips_a_message_finished_deleted_or_dead_a_moment_ago() {
        Message finished = aMessage().due(NOW).build();
        Message deleted = aMessage().due(NOW).build();
        Message dead = aMessage().due(NOW).maxAttempts(1).ttr(1_000).build();
        push(B, finished);
        push(B, deleted);
        push(B, dead);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 3, NOW, 0);
        finish(B, finished.id(), NOW);
        schedule.delete(B, deleted.id(), NOW);
        assertThat(reservations.requeueExpired(B, NOW + 1_000, 10).dead()).hasSize(1);

        for (Message m : List.of(finished, deleted, dead)) {
            assertThat(restore(B, m, NOW + 2_000)).isEqualTo(RestoreTarget.Restored.GONE);
            assertThat(restores.holds(B, m.id())).isFalse();
        }
    }

    @Test
    void gone_ids_are_forgotten_after_a_while() {
        Message old = aMessage().due(NOW).build();
        Message later = aMessage().due(NOW).build();
        push(B, old);
        push(B, later);
        schedule.delete(B, old.id(), NOW);
        assertThat(schedule.delete(B, 42L, NOW + goneMs() + 1)).isEmpty();
        assertThat(restore(B, old, NOW)).isEqualTo(RestoreTarget.Restored.GONE);
        schedule.delete(B, later.id(), NOW + goneMs() + 1);

        assertThat(restore(B, old, NOW)).isEqualTo(RestoreTarget.Restored.WRITTEN);
    }

    @Test
    void a_message_pushed_at_or_after_cold_from_is_held_by_its_id_until_warmed() {
        Message hot = aMessage().due(NOW + 1_000).build();
        Message cold = aMessage().due(NOW + 5_000).body("kept in MySQL").build();

        assertThat(schedule.push(B, List.of(hot, cold), NOW + 5_000 - COLD_AFTER_MS)).isTrue();

        assertThat(restores.holds(B, cold.id())).isTrue();
        assertThat(schedule.moveDue(B, NOW + 10_000, 10)).isEqualTo(
                new MoveResult(List.of(new Moved(hot.id(), "order")), Schedule.NONE));
        assertThat(schedule.coldUntil(B, NOW + 4_999, 10)).isEqualTo(new ColdIds(List.of(), NOW + 5_000));
        assertThat(schedule.coldUntil(B, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(cold.id()),
                Schedule.NONE));
        assertThat(schedule.warm(B, List.of(cold))).containsExactly(true);
        assertThat(schedule.warm(B, List.of(cold))).containsExactly(false);
        assertThat(schedule.coldUntil(B, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(), Schedule.NONE));
        assertThat(schedule.moveDue(B, NOW + 4_999, 10)).isEqualTo(new MoveResult(List.of(), NOW + 5_000));
        assertThat(schedule.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(cold.id(), "order"));
        assertThat(reservations.pop(B, "order", 10, NOW + 5_000, 0)).containsExactly(hot.withAttempts(1),
                cold.withAttempts(1));
        assertThat(schedule.warm(B, List.of())).isEmpty();
    }

    @Test
    void cold_ids_come_earliest_first_up_to_the_limit() {
        Message third = aMessage().due(NOW + 3_000).build();
        Message first = aMessage().due(NOW + 1_000).build();
        Message second = aMessage().due(NOW + 2_000).build();
        schedule.push(B, List.of(third, first, second), NOW - COLD_AFTER_MS);

        assertThat(schedule.coldUntil(B, NOW + 5_000, 2)).isEqualTo(new ColdIds(List.of(first.id(), second.id()),
                NOW + 3_000));
        assertThat(schedule.coldUntil(B, NOW + 2_500, 10)).isEqualTo(new ColdIds(List.of(first.id(), second.id()),
                NOW + 3_000));
        assertThat(schedule.coldUntil(B + 1, NOW + 5_000, 10)).isEqualTo(new ColdIds(List.of(), Schedule.NONE));
    }

    @Test
    void a_cold_message_replayed_or_warmed_is_not_made_cold_again() {
        Message m = aMessage().due(NOW + 5_000).build();
        schedule.push(B, List.of(m), NOW - COLD_AFTER_MS);
        schedule.push(B, List.of(m), NOW - COLD_AFTER_MS);
        assertThat(schedule.coldUntil(B, NOW + 5_000, 10).ids()).containsExactly(m.id());
        schedule.warm(B, List.of(m));

        schedule.push(B, List.of(m), NOW - COLD_AFTER_MS);

        assertThat(schedule.coldUntil(B, NOW + 5_000, 10).ids()).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(m.id(), "order"));
    }

    @Test
    void warming_a_message_held_whole_already_only_drops_its_cold_id() {
        Message m = aMessage().due(NOW + 5_000).build();
        schedule.push(B, List.of(m), NOW - COLD_AFTER_MS);
        push(B, m);
        schedule.moveDue(B, NOW + 5_000, 10);

        assertThat(schedule.warm(B, List.of(m))).containsExactly(true);

        assertThat(schedule.coldUntil(B, NOW + 5_000, 10).ids()).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 5_000, 10).moved()).isEmpty();
        assertThat(reservations.pop(B, "order", 10, NOW + 5_000, 0)).containsExactly(m.withAttempts(1));
    }

    @Test
    void a_deleted_cold_message_is_neither_warmed_nor_restored() {
        Message m = aMessage().due(NOW + 5_000).build();
        schedule.push(B, List.of(m), NOW - COLD_AFTER_MS);

        assertThat(schedule.delete(B, m.id(), NOW)).contains(MessageStatus.DELAY);

        assertThat(restores.holds(B, m.id())).isFalse();
        assertThat(restores.isEmpty(B)).isTrue();
        assertThat(schedule.warm(B, List.of(m))).containsExactly(false);
        assertThat(restore(B, m, m.score())).isEqualTo(RestoreTarget.Restored.GONE);
        assertThat(schedule.moveDue(B, NOW + 5_000, 10).moved()).isEmpty();
    }

    @Test
    void restore_puts_a_message_due_at_or_after_cold_from_back_cold() {
        Message far = aMessage().due(NOW + 5_000).build();
        Message near = aMessage().due(NOW + 1_000).build();

        List<RestoreTarget.Restored> outcomes = restores.restore(B, List.of(new RestoreTarget.Restoring(far, far.score()),
                new RestoreTarget.Restoring(near, near.score())), NOW + 5_000 - COLD_AFTER_MS);

        assertThat(outcomes).containsExactly(RestoreTarget.Restored.WRITTEN, RestoreTarget.Restored.WRITTEN);
        assertThat(schedule.coldUntil(B, NOW + 5_000, 10).ids()).containsExactly(far.id());
        assertThat(restores.isEmpty(B)).isFalse();
        assertThat(restore(B, far, far.score())).isEqualTo(RestoreTarget.Restored.PRESENT);
        assertThat(schedule.moveDue(B, NOW + 5_000, 10).moved()).containsExactly(new Moved(near.id(), "order"));
    }

    @Test
    void a_bucket_is_empty_until_it_holds_a_message() {
        assertThat(restores.isEmpty(B)).isTrue();
        Message m = aMessage().due(NOW).build();
        push(B, m);
        assertThat(restores.isEmpty(B)).isFalse();
        assertThat(restores.holds(B, m.id())).isTrue();
        assertThat(restores.isEmpty(B + 1)).isTrue();
        schedule.delete(B, m.id(), NOW);
        assertThat(restores.isEmpty(B)).isTrue();
    }

    @Test
    void nack_requeues_after_the_given_delay_or_the_retry_policy() {
        Message given = aMessage().due(NOW).priority(3).build();
        Message policy = aMessage().due(NOW).retryDelays(500L, 9_000L).build();
        push(B, given);
        push(B, policy);
        schedule.moveDue(B, NOW + 3, 10);
        reservations.pop(B, "order", 2, NOW + 3, 0);

        Reservations.Nacked byDelay = reservations.nack(B, given.id(), NOW + 10, 2_000L, false).orElseThrow();
        Reservations.Nacked byPolicy = reservations.nack(B, policy.id(), NOW + 10, null, false).orElseThrow();

        assertThat(byDelay.dead()).isFalse();
        assertThat(byDelay.message().dueTime()).isEqualTo(NOW + 2_010);
        assertThat(byDelay.message().attempts()).isEqualTo(1);
        assertThat(byPolicy.message().dueTime()).isEqualTo(NOW + 510);
        assertThat(reservations.nack(B, given.id(), NOW + 20, 0L, false)).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 2_012, 10).moved()).extracting(Moved::id).containsExactly(policy.id());
        assertThat(schedule.moveDue(B, NOW + 2_013, 10).moved()).extracting(Moved::id).containsExactly(given.id());
    }

    @Test
    void nack_of_the_last_attempt_is_dead() {
        Message m = aMessage().due(NOW).maxAttempts(1).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);

        Reservations.Nacked nacked = reservations.nack(B, m.id(), NOW + 1, null, false).orElseThrow();

        assertThat(nacked.dead()).isTrue();
        assertThat(restores.holds(B, m.id())).isFalse();
        assertThat(restore(B, m, NOW)).isEqualTo(RestoreTarget.Restored.GONE);
    }

    @Test
    void nack_as_dead_buries_a_message_with_attempts_left() {
        Message m = aMessage().due(NOW).maxAttempts(5).build();
        push(B, m);
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);

        Reservations.Nacked nacked = reservations.nack(B, m.id(), NOW + 1, null, true).orElseThrow();

        assertThat(nacked.dead()).isTrue();
        assertThat(nacked.message().attempts()).isEqualTo(1);
        assertThat(restores.holds(B, m.id())).isFalse();
        assertThat(schedule.moveDue(B, NOW + 600_000, 10).moved()).isEmpty();
        assertThat(restore(B, m, NOW)).isEqualTo(RestoreTarget.Restored.GONE);
    }

    @Test
    void touch_extends_only_a_reservation() {
        Message m = aMessage().due(NOW).ttr(1_000).build();
        push(B, m);
        assertThat(reservations.touch(B, m.id(), NOW)).isEmpty();
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 1, NOW, 0);

        assertThat(reservations.touch(B, m.id(), NOW + 900)).hasValue(NOW + 1_900);
        assertThat(reservations.requeueExpired(B, NOW + 1_000, 10).requeued()).isEmpty();
        assertThat(reservations.requeueExpired(B, NOW + 1_900, 10).requeued()).hasSize(1);
    }

    @Test
    void a_pop_reserved_until_a_deadline_holds_each_until_then_or_its_ttr_when_that_is_later() {
        Message early = aMessage().due(NOW).ttr(1_000).build();
        Message late = aMessage().due(NOW).ttr(60_000).build();
        for (Message m : List.of(early, late)) {
            push(B, m);
        }
        schedule.moveDue(B, NOW, 10);

        assertThat(reservations.pop(B, "order", 10, NOW, NOW + 30_000)).extracting(Message::id)
                .containsExactly(early.id(), late.id());
        assertThat(reservations.requeueExpired(B, NOW + 29_999, 10).requeued()).isEmpty();
        assertThat(reservations.requeueExpired(B, NOW + 30_000, 10).requeued()).extracting(Requeued::id)
                .containsExactly(early.id());
        assertThat(reservations.requeueExpired(B, NOW + 60_000, 10).requeued()).extracting(Requeued::id)
                .containsExactly(late.id());
    }

    @Test
    void reschedule_moves_only_a_pending_message_and_can_replace_its_body() {
        Message pending = aMessage().due(NOW + 10_000).priority(2).build();
        Message ready = aMessage().due(NOW).build();
        push(B, pending);
        push(B, ready);
        schedule.moveDue(B, NOW, 10);

        assertThat(schedule.reschedule(B, pending.id(), NOW + 100, "new body")).contains(MessageStatus.DELAY);
        assertThat(schedule.reschedule(B, ready.id(), NOW + 100, null)).contains(MessageStatus.READY);
        assertThat(schedule.reschedule(B, 4_242L, NOW + 100, null)).isEmpty();
        reservations.pop(B, "order", 1, NOW, 0);
        assertThat(schedule.reschedule(B, ready.id(), NOW + 100, null)).contains(MessageStatus.RESERVED);
        assertThat(schedule.moveDue(B, NOW + 101, 10).moved()).isEmpty();
        assertThat(schedule.moveDue(B, NOW + 102, 10).moved()).extracting(Moved::id).containsExactly(pending.id());
        Message moved = reservations.pop(B, "order", 1, NOW + 102, 0).get(0);
        assertThat(moved.body()).isEqualTo("new body");
        assertThat(moved.dueTime()).isEqualTo(NOW + 100);
    }

    @Test
    void requeue_respects_limit_and_takes_the_earliest_deadlines() {
        Message shortTtr = aMessage().due(NOW).ttr(1_000).build();
        Message midTtr = aMessage().due(NOW).ttr(2_000).build();
        Message longTtr = aMessage().due(NOW).ttr(3_000).build();
        List.of(shortTtr, midTtr, longTtr).forEach(m -> push(B, m));
        schedule.moveDue(B, NOW, 10);
        reservations.pop(B, "order", 3, NOW, 0);

        RequeueResult result = reservations.requeueExpired(B, NOW + 5_000, 2);

        assertThat(result.requeued()).extracting(Requeued::id).containsExactly(shortTtr.id(), midTtr.id());
        assertThat(result.nextDeadline()).isEqualTo(NOW + 3_000);
    }

    @Test
    void priority_orders_messages_due_together() {
        Message low = aMessage().due(NOW).priority(5).build();
        Message first = aMessage().due(NOW).priority(0).build();
        Message mid = aMessage().due(NOW).priority(3).build();
        List.of(low, first, mid).forEach(m -> push(B, m));

        assertThat(schedule.moveDue(B, NOW + 3, 10).moved()).extracting(Moved::id).containsExactly(first.id(), mid.id());
        schedule.moveDue(B, NOW + 5, 10);
        assertThat(reservations.pop(B, "order", 3, NOW + 5, 0)).extracting(Message::id)
                .containsExactly(first.id(), mid.id(), low.id());
    }
}
