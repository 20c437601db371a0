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
 * The first step of a shutdown: parked pops are answered with what they have, and later pops at once, so no consumer
 * holds the shutdown up until its timeout. The pops here wait far longer than a test runs.
 */
class AnswerWaitingConsumersTest {
    private static final Duration LONG_POLL = Duration.ofMinutes(1);

    private final SettableClock clock = new SettableClock(EngineFixture.T0);
    private final AtomicLong ids = new AtomicLong(1_000);
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final InMemoryScheduleStore store = new InMemoryScheduleStore(4, List.of(0L), EngineFixture.COLD_AFTER);
    private final Engine engine = EngineFixture.engine(
            EngineFixture.settings(3, List.of(0L)).maxWait(LONG_POLL).maxPopLinger(LONG_POLL).build(), store,
            messageLog,
            new InMemoryReadySignal(), ids::incrementAndGet, clock);
    private final Consumer consumer = engine.consumer();

    AnswerWaitingConsumersTest() {
        engine.startManual();
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void parked_pops_of_every_topic_are_answered_empty() throws Exception {
        CompletableFuture<List<Message>> order = consumer.pop("order", 1, LONG_POLL, Duration.ZERO);
        CompletableFuture<List<Message>> mail = consumer.pop("mail", 10, LONG_POLL, Duration.ZERO);
        assertThat(order).isNotDone();
        assertThat(mail).isNotDone();

        int answered = engine.answerWaitingConsumers();

        assertThat(answered).isEqualTo(2);
        assertThat(order.get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(mail.get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void a_lingering_pop_is_answered_with_what_it_got() throws Exception {
        long first = push(1_000);
        push(60_000);
        CompletableFuture<List<Message>> popped = consumer.pop("order", 10, LONG_POLL, LONG_POLL);
        clock.advance(1_000);
        engine.runOnce();
        await().atMost(Duration.ofSeconds(5)).until(() -> reserved(first));
        assertThat(popped).isNotDone();

        engine.answerWaitingConsumers();

        assertThat(popped.get(5, TimeUnit.SECONDS)).extracting(Message::id).containsExactly(first);
    }

    @Test
    void a_pop_after_it_is_answered_empty_at_once_and_leaves_ready_messages_ready() {
        push(1_000);
        clock.advance(1_000);
        engine.runOnce();
        assertThat(readyCount("order")).isEqualTo(1);
        engine.answerWaitingConsumers();

        CompletableFuture<List<Message>> popped = consumer.pop("order", 1, LONG_POLL, Duration.ZERO);

        assertThat(popped).isCompletedWithValue(List.of());
        assertThat(readyCount("order")).as("ready ids left for another instance").isEqualTo(1);
    }

    private long push(long delay) {
        return engine.producer().push(new PushRequest("order", null, "body", delay, null, null, null, null, null),
                OnDuplicate.IGNORE).id();
    }

    private long readyCount(String topic) {
        long count = 0;
        for (int b = 0; b < store.buckets(); b++) {
            count += store.readyCount(b, topic);
        }
        return count;
    }

    private boolean reserved(long id) {
        return messageLog.history(id).stream().anyMatch(t -> t.to() == MessageStatus.RESERVED);
    }
}
