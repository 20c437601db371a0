package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** An engine on in-memory ports and a settable clock, its loops driven by {@link Engine#runOnce()}. */
final class EngineFixture implements AutoCloseable {
    static final long T0 = 1_700_000_000_000L;

    final SettableClock clock = new SettableClock(T0);
    final InMemoryScheduleStore store;
    final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    final Engine engine;
    private final AtomicLong ids = new AtomicLong(9_000);

    EngineFixture(int buckets, int maxAttempts, List<Long> backoff, int maxWaitingPerTopic) {
        store = new InMemoryScheduleStore(buckets, backoff);
        PushRules rules = new PushRules(Duration.ofDays(365).toMillis(), 65_536, 30_000, maxAttempts, backoff);
        engine = new Engine(settings(rules, maxWaitingPerTopic), store, messageLog, new InMemoryReadySignal(),
                ids::incrementAndGet, clock);
        engine.startManual();
    }

    /** The cold window of the engine tests, as the server's default: messages due later are kept cold. */
    static final Duration COLD_AFTER = Duration.ofHours(1);

    /** The engine settings of the engine tests: no linger, a 5 s write timeout, queues of 10 000. */
    static EngineSettings settings(PushRules rules, int maxWaitingPerTopic) {
        return new EngineSettings(rules, "test-host", 1_000, Duration.ofSeconds(1), COLD_AFTER, 10_000, 10_000,
                1_000, Duration.ofSeconds(5), Duration.ZERO, 100, Duration.ofSeconds(60), maxWaitingPerTopic,
                Duration.ofSeconds(1), RecoverySettings.defaults());
    }

    long push(String topic, String bizKey, long delay) {
        return engine.push(new PushRequest(topic, bizKey, "body", delay, null, null, null, null, null)).id();
    }

    List<Message> popNow(String topic) {
        return engine.pop(topic, 100, Duration.ZERO).join();
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
