package io.sdmq.core.engine;

import io.sdmq.common.PushRequest;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.spi.MessageEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static io.sdmq.core.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** The engine tells its {@link MessageEvents} each push, hand-out, finish, nack, redelivery and death, per topic. */
class MessageEventsTest {
    private final Queue<String> events = new ConcurrentLinkedQueue<>();
    private final EngineFixture f = new EngineFixture(4, 2, List.of(1_000L), 10, new Recording(events));

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void a_hand_out_tells_its_due_time_and_when_it_happened() {
        f.push("order", null, 1_000);
        f.advance(1_500);
        assertThat(f.popNow("order")).hasSize(1);

        assertThat(events).containsExactly("pushed order", "delivered order due " + (T0 + 1_000) + " at "
                + (T0 + 1_500));
    }

    @Test
    void finish_nack_redelivery_and_death_are_told_with_their_topic() {
        long finished = f.push("order", null, 0);
        long nacked = f.push("mail", null, 0);
        long buried = f.push("mail", null, 0);
        f.engine.producer().push(new PushRequest("sms", null, "b", 0L, null, null, 1_000L, null, null),
                OnDuplicate.IGNORE);
        f.push("order", "key", 0);
        f.push("order", "key", 0);
        f.advance(0);
        f.popNow("order");
        f.popNow("mail");
        f.popNow("sms");
        events.clear();

        f.engine.consumer().finish(finished);
        f.engine.consumer().nack(nacked, 60_000L);
        f.engine.consumer().nackAsDead(buried);
        f.advance(1_000);
        f.advance(1_000);
        f.popNow("sms");
        f.advance(1_000);

        assertThat(events).containsExactly("finished order", "nacked mail", "nacked mail", "dead mail",
                "redelivered sms", "delivered sms due " + (T0 + 2_000) + " at " + (T0 + 2_000), "dead sms");
    }

    /** Writes each event as a line. */
    private record Recording(Queue<String> events) implements MessageEvents {
        @Override
        public void pushed(String topic) {
            events.add("pushed " + topic);
        }

        @Override
        public void delivered(String topic, long dueTime, long now) {
            events.add("delivered " + topic + " due " + dueTime + " at " + now);
        }

        @Override
        public void finished(String topic) {
            events.add("finished " + topic);
        }

        @Override
        public void nacked(String topic) {
            events.add("nacked " + topic);
        }

        @Override
        public void redelivered(String topic) {
            events.add("redelivered " + topic);
        }

        @Override
        public void dead(String topic) {
            events.add("dead " + topic);
        }
    }
}
