package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRequest;
import io.sdmq.core.Consumer;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pop that lingers: once a first message is ready it waits for the rest of its batch, up to its linger. The engine
 * allows lingers up to a minute here, so that a test's steps never race the linger's end.
 */
class LingerTest {
    private static final Duration LONG_POLL = Duration.ofSeconds(30);
    private static final Duration LONG_LINGER = Duration.ofSeconds(30);

    private final SettableClock clock = new SettableClock(EngineFixture.T0);
    private final AtomicLong ids = new AtomicLong(1_000);
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final Engine engine = EngineFixture.engine(
            EngineFixture.settings(3, List.of(0L)).maxPopLinger(Duration.ofMinutes(1)).build(),
            new InMemoryScheduleStore(4, List.of(0L), EngineFixture.COLD_AFTER), messageLog,
            new InMemoryReadySignal(), ids::incrementAndGet, clock);
    private final Consumer consumer = engine.consumer();

    LingerTest() {
        engine.startManual();
    }

    @AfterEach
    void close() {
        engine.close();
    }

    /**
     * Once it lingers, it pops again only when the messages that fell due since would fill its batch: one pop for
     * them, not one per message.
     */
    @Test
    void a_lingering_pop_gathers_messages_that_fall_due_one_at_a_time_until_its_batch_is_full() throws Exception {
        long first = push(1_000);
        long second = push(2_000);
        long third = push(3_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 3, LONG_POLL, LONG_LINGER);

        dueAfter(1_000);
        awaitReserved(first);
        assertThat(popped).isNotDone();
        dueAfter(1_000);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !popped.isDone()
                && messageLog.history(second).stream().noneMatch(t -> t.to() == MessageStatus.RESERVED));
        dueAfter(1_000);

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id)
                .containsExactlyInAnyOrder(first, second, third);
    }

    @Test
    void a_lingering_pop_takes_what_fell_due_during_its_linger_when_it_ends() throws Exception {
        long first = push(1_000);
        long second = push(2_000);
        push(60_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 10, LONG_POLL, Duration.ofSeconds(1));

        dueAfter(1_000);
        awaitReserved(first);
        dueAfter(1_000);

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first, second);
    }

    @Test
    void a_lingering_pop_answers_what_it_has_when_its_linger_ends() throws Exception {
        long first = push(1_000);
        push(60_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 10, LONG_POLL, Duration.ofMillis(100));

        dueAfter(1_000);

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first);
    }

    @Test
    void a_lingering_pop_answers_what_it_has_at_its_timeout() throws Exception {
        long first = push(1_000);
        push(60_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 10, Duration.ofMillis(200), LONG_LINGER);

        dueAfter(1_000);

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first);
    }

    @Test
    void a_lingering_pop_with_nothing_due_answers_empty_at_its_timeout() throws Exception {
        push(60_000);

        assertThat(consumer.pop("order", 10, Duration.ofMillis(50), LONG_LINGER).get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void a_pop_without_linger_answers_with_the_first_messages_ready() throws Exception {
        long first = push(1_000);
        push(2_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 10, LONG_POLL, Duration.ZERO);

        dueAfter(1_000);

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first);
    }

    /** The consumer behind a lingering one is served once that one's batch is full. */
    @Test
    void consumers_behind_a_lingering_one_are_served_in_turn() throws Exception {
        long first = push(1_000);
        long second = push(2_000);
        long third = push(3_000);
        CompletableFuture<List<Message>> lingering = consumer.pop("order", 2, LONG_POLL, LONG_LINGER);
        CompletableFuture<List<Message>> next = consumer.pop("order", 1, LONG_POLL, Duration.ZERO);

        dueAfter(1_000);
        awaitReserved(first);
        dueAfter(1_000);
        awaitReserved(second);
        dueAfter(1_000);

        assertThat(lingering.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first, second);
        assertThat(next.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(third);
    }

    private long push(long delay) {
        return engine.producer().push(new PushRequest("order", null, "body", delay, null, null, null, null, null),
                OnDuplicate.IGNORE).id();
    }

    /** Advances the clock and moves what fell due; the waiting pops take it on a drain thread. */
    private void dueAfter(long ms) {
        clock.advance(ms);
        engine.runOnce();
    }

    /** Waits until a drain thread has popped the message (its RESERVED transition is in the log). */
    private void awaitReserved(long id) {
        await().atMost(Duration.ofSeconds(5)).until(() -> messageLog.history(id).stream()
                .anyMatch(t -> t.to() == MessageStatus.RESERVED));
    }
}
