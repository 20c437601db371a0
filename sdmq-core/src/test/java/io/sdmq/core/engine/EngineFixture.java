package io.sdmq.core.engine;

import io.sdmq.common.IdGenerator;
import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.SchedulePorts;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** An engine on in-memory ports and a settable clock, its loops driven by {@link Engine#runOnce()}. */
final class EngineFixture implements AutoCloseable {
    static final long T0 = 1_700_000_000_000L;
    /** The cold window of the engine tests, as the server's default: messages due later are kept cold. */
    static final Duration COLD_AFTER = Duration.ofHours(1);

    final SettableClock clock = new SettableClock(T0);
    final InMemoryScheduleStore store;
    final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    final Engine engine;
    private final AtomicLong ids = new AtomicLong(9_000);

    EngineFixture(int buckets, int maxAttempts, List<Long> backoff, int maxWaitingPerTopic) {
        this(buckets, maxAttempts, backoff, maxWaitingPerTopic, MessageEvents.NONE);
    }

    /** As above, telling {@code events} what happens to messages. */
    EngineFixture(int buckets, int maxAttempts, List<Long> backoff, int maxWaitingPerTopic, MessageEvents events) {
        store = new InMemoryScheduleStore(buckets, backoff, COLD_AFTER);
        engine = new Engine(settings(maxAttempts, backoff).maxWaitingPerTopic(maxWaitingPerTopic).build(), store,
                store, store, messageLog, new InMemoryReadySignal(), ids::incrementAndGet, clock, new NoTopicSettings(),
                null, events);
        engine.startManual();
    }

    /**
     * The engine settings of the engine tests: the given retry policy, no linger, a 5 s write timeout, queues of
     * 10 000.
     */
    static EngineSettings.Builder settings(int maxAttempts, List<Long> backoff) {
        return EngineSettings.builder().host("test-host").maxAttempts(maxAttempts)
                .retryDelays(backoff.stream().map(Duration::ofMillis).toList()).coldAfter(COLD_AFTER)
                .writeCapacity(10_000).backgroundCapacity(10_000).linger(Duration.ZERO);
    }

    /** An engine whose three schedule ports are one store's. */
    static Engine engine(EngineSettings settings, SchedulePorts store, MessageLog messageLog, ReadySignal signal,
                         IdGenerator ids, Clock clock) {
        return new Engine(settings, store, store, store, messageLog, signal, ids, clock);
    }

    long push(String topic, String bizKey, long delay) {
        return engine.producer().push(new PushRequest(topic, bizKey, "body", delay, null, null, null, null, null),
                OnDuplicate.IGNORE).id();
    }

    List<Message> popNow(String topic) {
        return engine.consumer().pop(topic, 100, Duration.ZERO, Duration.ZERO).join();
    }

    /** Advances the clock and runs the loops twice (a requeue, then the move of what it requeued). */
    void advance(long ms) {
        clock.advance(ms);
        engine.runOnce();
        engine.runOnce();
    }

    @Override
    public void close() {
        engine.close();
    }
}
