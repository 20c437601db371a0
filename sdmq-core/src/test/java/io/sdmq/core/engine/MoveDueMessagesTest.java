package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.SettableClock;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryScheduleStore;
import io.sdmq.core.spi.Schedule;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** Buckets move together; one whose move fails holds up none of the others, and is due again at once. */
    @Test
    void a_bucket_whose_move_fails_holds_up_no_other_and_is_due_again_at_once() {
        SettableClock clock = new SettableClock(T0);
        InMemoryScheduleStore store = new InMemoryScheduleStore(3, List.of(0L), Duration.ZERO);
        AtomicBoolean bucketOneDown = new AtomicBoolean(true);
        Schedule schedule = (Schedule) Proxy.newProxyInstance(Schedule.class.getClassLoader(),
                new Class<?>[] {Schedule.class}, (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    if (method.getName().equals("moveDue") && (int) args[0] == 1 && bucketOneDown.get()) {
                        throw new UnavailableException("bucket 1's node is down (test)", null);
                    }
                    return method.invoke(store, args);
                });
        InMemoryMessageLog messageLog = new InMemoryMessageLog();
        StatusLog statusLog = new StatusLog(messageLog, EngineFixture.settings(3, List.of(0L)).build(),
                System::nanoTime);
        statusLog.start();
        try {
            List<Message> messages = new ArrayList<>();
            for (int bucket = 0; bucket < 3; bucket++) {
                Message m = aMessage().topic("order").createdAt(T0).due(T0).build();
                messageLog.insert(List.of(m));
                store.push(bucket, List.of(m), T0);
                messages.add(m);
            }
            Map<Integer, Integer> told = new ConcurrentHashMap<>();
            BucketTimes heads = new BucketTimes(3, 1_000);
            MoveDueMessages scheduler = new MoveDueMessages(schedule, statusLog,
                    (bucket, counts) -> told.merge(bucket, counts.get("order"), Integer::sum), new BucketLocks(3), 100,
                    heads, clock);

            assertThatThrownBy(() -> scheduler.runOnce(T0)).isInstanceOf(UnavailableException.class);
            statusLog.flushBackground();

            assertThat(told).containsExactlyInAnyOrderEntriesOf(Map.of(0, 1, 2, 1));
            assertThat(messageLog.find(messages.get(0).id()).orElseThrow().status()).isEqualTo(READY);
            assertThat(messageLog.find(messages.get(1).id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
            assertThat(messageLog.find(messages.get(2).id()).orElseThrow().status()).isEqualTo(READY);

            bucketOneDown.set(false);
            clock.advance(1);
            assertThat(scheduler.runOnce(clock.millis())).isEqualTo(T0 + 1_000);
            statusLog.flushBackground();
            assertThat(told).containsEntry(1, 1);
            assertThat(messageLog.find(messages.get(1).id()).orElseThrow().status()).isEqualTo(READY);
        } finally {
            statusLog.stop();
        }
    }
}
