package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryScheduleStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

class MoveDueMessagesTest {
    private static final long T0 = EngineFixture.T0;

    /**
     * The scheduler's tick read the clock at T0; a push of a message due at T0 then recorded its DELAY at T0 + 1
     * before the move got the bucket. The READY is timed at the move, so the row ends READY, not DELAY.
     */
    @Test
    void a_move_is_timed_once_it_holds_the_bucket_so_a_delay_recorded_while_it_waited_does_not_outlast_it() {
        SettableClock clock = new SettableClock(T0);
        InMemoryScheduleStore store = new InMemoryScheduleStore(1, List.of(0L), Duration.ZERO);
        InMemoryMessageLog messageLog = new InMemoryMessageLog();
        StatusLog statusLog = new StatusLog(messageLog, EngineFixture.settings(3, List.of(0L)).build(),
                System::nanoTime);
        statusLog.start();
        try {
            Message m = aMessage().topic("order").createdAt(T0).due(T0).build();
            messageLog.insert(List.of(m));
            store.push(0, List.of(m), T0);
            clock.advance(1);
            statusLog.record(Transition.of(m.id(), WAIT_PUT, DELAY, clock.millis(), store.bucketName(0)));
            MoveDueMessages scheduler = new MoveDueMessages(store, statusLog, (bucket, counts) -> { },
                    new BucketLocks(1), 100, new BucketTimes(1, 1_000), clock);

            scheduler.runOnce(T0);
            statusLog.flushBackground();

            assertThat(messageLog.find(m.id()).orElseThrow().status()).isEqualTo(READY);
            assertThat(messageLog.history(m.id())).extracting(Transition::to).containsExactly(WAIT_PUT, DELAY, READY);
        } finally {
            statusLog.stop();
        }
    }
}
