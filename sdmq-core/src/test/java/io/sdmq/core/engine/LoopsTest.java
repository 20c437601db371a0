package io.sdmq.core.engine;

import io.sdmq.core.Producer.OnDuplicate;

import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The engine's own loop threads on the system clock. The scheduler looks at Redis on its own only once an hour here,
 * so each message below is delivered only because the loop that scheduled it woke the scheduler.
 */
class LoopsTest {
    private static final Duration ONCE_AN_HOUR = Duration.ofHours(1);

    private final InMemoryScheduleStore store = new InMemoryScheduleStore(4, List.of(0L), Duration.ofSeconds(1));
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final AtomicLong ids = new AtomicLong(7_000);
    private final List<Engine> engines = new ArrayList<>();

    @AfterEach
    void close() {
        engines.forEach(Engine::close);
    }

    @Test
    void a_message_whose_reservation_expires_is_delivered_again_at_once() {
        Engine engine = started(Duration.ZERO);
        long id = engine.producer().push(new PushRequest("order", null, "body", 0L, null, null, 1_000L, 3, null), OnDuplicate.IGNORE).id();

        assertThat(popWithin(engine)).extracting(Message::id).containsExactly(id);

        assertThat(popWithin(engine)).extracting(Message::id, Message::attempts)
                .containsExactly(tuple(id, 2));
    }

    @Test
    void a_message_warmed_after_the_scheduler_last_looked_is_delivered_when_due() {
        Engine writer = engine(Duration.ofSeconds(1));
        writer.startManual();
        long id = writer.producer().push(new PushRequest("order", null, "body", 3_000L, null, null, null, null, null), OnDuplicate.IGNORE).id();
        writer.close();
        assertThat(store.coldIds()).containsExactly(id);

        Engine engine = started(Duration.ZERO);

        assertThat(popWithin(engine)).extracting(Message::id).containsExactly(id);
        assertThat(store.coldIds()).isEmpty();
    }

    /** An engine with every loop running and the given cold window. */
    private Engine started(Duration coldAfter) {
        Engine engine = engine(coldAfter);
        engine.start();
        return engine;
    }

    private Engine engine(Duration coldAfter) {
        EngineSettings settings = EngineFixture.settings(3, List.of(0L)).coldAfter(coldAfter).maxSleep(ONCE_AN_HOUR)
                .readySweep(ONCE_AN_HOUR).build();
        Engine engine = EngineFixture.engine(settings, store, messageLog, new InMemoryReadySignal(),
                ids::incrementAndGet, Clock.systemUTC());
        engines.add(engine);
        return engine;
    }

    /** Long-polls until a message comes, for at most 20 s; an hourly look of the scheduler would be far later. */
    private static List<Message> popWithin(Engine engine) {
        List<Message> popped = new ArrayList<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            popped.addAll(engine.consumer().pop("order", 10, Duration.ofSeconds(5), Duration.ZERO).join());
            return !popped.isEmpty();
        });
        return popped;
    }
}
