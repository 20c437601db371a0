package io.sdmq.core.engine;

import io.sdmq.core.Producer.OnDuplicate;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.common.Transition;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The engine driven step by step with a settable clock; the loops never run on their own here. */
class EngineTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final List<Long> BACKOFF = List.of(0L, 10_000L);

    private final SettableClock clock = new SettableClock(T0);
    private InMemoryScheduleStore store;
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final InMemoryReadySignal signal = new InMemoryReadySignal();
    private final AtomicLong ids = new AtomicLong(1_000);
    private Engine engine;

    @BeforeEach
    void startEngine() {
        startEngine(4);
    }

    private void startEngine(int buckets) {
        store = new InMemoryScheduleStore(buckets, BACKOFF, EngineFixture.COLD_AFTER);
        engine = EngineFixture.engine(EngineFixture.settings(3, BACKOFF).build(), store, messageLog, signal,
                ids::incrementAndGet, clock);
        engine.startManual();
    }

    @AfterEach
    void stopEngine() {
        engine.close();
    }

    @Test
    void pushed_message_is_not_delivered_before_it_is_due() {
        long id = push("order", 5_000, null);

        clock.advance(4_999);
        engine.runOnce();
        assertThat(popNow("order")).isEmpty();

        clock.advance(1);
        engine.runOnce();
        assertThat(popNow("order")).extracting(Message::id).containsExactly(id);
    }

    @Test
    void a_waiting_consumer_gets_the_message_the_moment_it_is_due() throws Exception {
        long id = push("order", 2_000, null);
        CompletableFuture<List<Message>> waiting =
                engine.consumer().pop("order", 10, Duration.ofSeconds(30), Duration.ZERO);
        engine.runOnce();
        assertThat(waiting).isNotDone();

        clock.advance(2_000);
        engine.runOnce();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(id);
        assertThat(signal.published()).hasSize(1).allMatch(s -> s.endsWith("/order"));
    }

    /** A pop that has to wait is parked; a drain thread answers it when the message is due. */
    @Test
    void a_pop_that_has_to_wait_is_answered_by_a_drain_thread() throws Exception {
        long id = push("order", 2_000, null);
        CompletableFuture<List<Message>> waiting =
                engine.consumer().pop("order", 10, Duration.ofSeconds(30), Duration.ZERO);
        assertThatThrownBy(() -> waiting.get(20, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);

        clock.advance(2_000);
        engine.runOnce();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(id);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(messageLog.history(id))
                .filteredOn(t -> t.to() == RESERVED).extracting(Transition::thread)
                .singleElement().asString().startsWith("sdmq-pop"));
    }

    @Test
    void a_long_poll_with_nothing_due_answers_an_empty_list_after_its_timeout() throws Exception {
        push("order", 60_000, null);
        assertThat(engine.consumer().pop("order", 1, Duration.ofMillis(50), Duration.ZERO).get(5, TimeUnit.SECONDS))
                .isEmpty();
    }

    @Test
    void every_status_change_is_journaled_in_order() {
        long id = push("order", 0, null);
        clock.advance(1);
        engine.runOnce();
        clock.advance(1);
        popNow("order");
        clock.advance(1);
        engine.consumer().finish(id);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(messageLog.history(id))
                .extracting(Transition::to).containsExactly(WAIT_PUT, DELAY, READY, RESERVED, FINISHED));
        assertThat(messageLog.find(id).orElseThrow().status()).isEqualTo(FINISHED);
    }

    @Test
    void an_unfinished_message_comes_back_after_its_ttr() {
        long id = push("order", 0, 1_000L);
        engine.runOnce();
        assertThat(popNow("order")).extracting(Message::attempts).containsExactly(1);

        clock.advance(999);
        engine.runOnce();
        assertThat(popNow("order")).isEmpty();

        clock.advance(1);
        engine.runOnce();
        engine.runOnce();
        List<Message> again = popNow("order");
        assertThat(again).extracting(Message::id).containsExactly(id);
        assertThat(again.get(0).attempts()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(messageLog.find(id).orElseThrow().message().attempts()).isEqualTo(2));
    }

    /** A sink's pop waits for its messages; each is reserved for the reservation from the moment it is popped. */
    @Test
    void a_reserved_pop_holds_each_message_for_its_reservation_from_the_pop_not_from_the_call() throws Exception {
        long id = push("order", 2_000, 1_000L);
        CompletableFuture<List<Message>> waiting =
                engine.consumer().popReserved("order", 10, Duration.ofSeconds(30), Duration.ofSeconds(10));
        clock.advance(2_000);
        engine.runOnce();
        assertThat(waiting.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(id);

        clock.advance(9_999);
        engine.runOnce();
        engine.runOnce();
        assertThat(popNow("order")).as("neither its TTR nor 10 s from the call end the reservation").isEmpty();

        clock.advance(1);
        engine.runOnce();
        engine.runOnce();
        assertThat(popNow("order")).extracting(Message::id).containsExactly(id);
    }

    @Test
    void a_message_whose_attempts_are_exhausted_ends_dead() {
        long id = push("order", 0, 1_000L);
        for (int attempt = 1; attempt <= 3; attempt++) {
            engine.runOnce();
            assertThat(popNow("order")).extracting(Message::attempts).containsExactly(attempt);
            clock.advance(BACKOFF.get(Math.min(attempt, BACKOFF.size()) - 1) + 1_000);
            engine.runOnce();
            clock.advance(10_000);
        }
        engine.runOnce();

        assertThat(popNow("order")).isEmpty();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(messageLog.find(id).orElseThrow().status()).isEqualTo(DEAD);
            assertThat(messageLog.history(id)).extracting(Transition::to).endsWith(RESERVED, DEAD);
        });
    }

    @Test
    void a_deleted_message_is_never_delivered() {
        long id = push("order", 1_000, null);
        engine.producer().delete(id);
        clock.advance(1_000);
        engine.runOnce();

        assertThat(popNow("order")).isEmpty();
        assertThat(messageLog.find(id).orElseThrow().status()).isEqualTo(DELETED);
        assertThatThrownBy(() -> engine.producer().delete(id)).isInstanceOf(MessageStateException.class)
                .hasMessageContaining("DELETED");
    }

    @Test
    void a_ready_message_can_be_deleted_and_is_skipped_by_pop() {
        long id = push("order", 0, null);
        engine.runOnce();
        engine.producer().delete(id);

        assertThat(popNow("order")).isEmpty();
        assertThat(messageLog.history(id)).filteredOn(t -> t.to() == DELETED).extracting(Transition::from)
                .containsExactly(READY);
    }

    @Test
    void finish_answers_not_found_and_conflict() {
        long id = push("order", 60_000, null);

        assertThatThrownBy(() -> engine.consumer().finish(42)).isInstanceOf(MessageNotFoundException.class);
        assertThatThrownBy(() -> engine.consumer().finish(id)).isInstanceOf(MessageStateException.class)
                .hasMessageContaining("not reserved");
        clock.advance(60_000);
        engine.runOnce();
        popNow("order");
        engine.consumer().finish(id);
        assertThatThrownBy(() -> engine.consumer().finish(id)).isInstanceOf(MessageStateException.class)
                .hasMessageContaining("FINISHED");
    }

    @Test
    void a_repeated_biz_key_answers_the_first_id_and_changes_nothing() {
        var first = engine.producer().push(request("order", "order-42", 1_000), OnDuplicate.IGNORE);
        var second = engine.producer().push(request("order", "order-42", 5_000), OnDuplicate.IGNORE);

        assertThat(second.duplicate()).isTrue();
        assertThat(second.id()).isEqualTo(first.id());
        clock.advance(1_000);
        engine.runOnce();
        assertThat(popNow("order")).hasSize(1);
    }

    @Test
    void bad_pop_arguments_name_the_field() {
        assertThatThrownBy(() -> engine.consumer().pop("no spaces", 1, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("topic:");
        assertThatThrownBy(() -> engine.consumer().pop("order", 0, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("count:");
        assertThatThrownBy(() -> engine.consumer().pop("order", 1, Duration.ofSeconds(61), Duration.ZERO))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("timeout:");
        assertThatThrownBy(() -> engine.consumer().pop("order", 1, Duration.ZERO, Duration.ofMillis(51)))
                .isInstanceOf(InvalidRequestException.class).hasMessage("linger: must be in 0..50 ms");
        assertThatThrownBy(() -> engine.consumer().pop("order", 1, Duration.ZERO, Duration.ofMillis(-1)))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("linger:");
    }

    @Test
    void priority_orders_messages_due_in_the_same_instant() {
        engine.close();
        startEngine(1);
        long late = engine.producer().push(new PushRequest("order", null, "b", 0L, null, 5, null, null, null), OnDuplicate.IGNORE).id();
        long early = engine.producer().push(new PushRequest("order", null, "a", 0L, null, 1, null, null, null), OnDuplicate.IGNORE).id();
        clock.advance(10);
        engine.runOnce();

        assertThat(popNow("order")).extracting(Message::id).containsExactly(early, late);
    }

    private long push(String topic, long delay, Long ttr) {
        return engine.producer().push(new PushRequest(topic, null, "body", delay, null, null, ttr, null, null), OnDuplicate.IGNORE).id();
    }

    private static PushRequest request(String topic, String bizKey, long delay) {
        return new PushRequest(topic, bizKey, "body", delay, null, null, null, null, null);
    }

    private List<Message> popNow(String topic) {
        return engine.consumer().pop(topic, 100, Duration.ZERO, Duration.ZERO).join();
    }
}
