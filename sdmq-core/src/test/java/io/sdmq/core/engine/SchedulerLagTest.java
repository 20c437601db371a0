package io.sdmq.core.engine;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Engine#schedulerLagMs()}: how long ago the earliest due time the scheduler knows of passed unmoved. */
class SchedulerLagTest {

    @Test
    void the_lag_grows_while_a_due_message_waits_for_the_scheduler_and_is_zero_once_it_moved() {
        try (EngineFixture f = new EngineFixture(4, 3, List.of(0L), 100)) {
            f.engine.runOnce();
            assertThat(f.engine.schedulerLagMs()).isZero();

            f.push("lag", null, 1_000);
            f.clock.advance(999);
            assertThat(f.engine.schedulerLagMs()).as("not due yet").isZero();
            f.clock.advance(4_001);
            assertThat(f.engine.schedulerLagMs()).isEqualTo(4_000);

            f.engine.runOnce();
            assertThat(f.engine.schedulerLagMs()).isZero();
            assertThat(f.popNow("lag")).hasSize(1);
        }
    }

    @Test
    void the_earliest_of_several_due_messages_sets_the_lag() {
        try (EngineFixture f = new EngineFixture(4, 3, List.of(0L), 100)) {
            f.engine.runOnce();
            for (long delay : new long[] {3_000, 1_000, 2_000}) {
                f.push("lag", null, delay);
            }
            f.clock.advance(2_500);
            assertThat(f.engine.schedulerLagMs()).isEqualTo(1_500);

            f.engine.runOnce();
            assertThat(f.engine.schedulerLagMs()).isZero();
            f.clock.advance(1_000);
            assertThat(f.engine.schedulerLagMs()).as("the third, due 500 ms ago").isEqualTo(500);
        }
    }

    @Test
    void an_engine_that_never_looked_at_its_buckets_lags_no_more_than_its_age() {
        try (EngineFixture f = new EngineFixture(4, 3, List.of(0L), 100)) {
            f.clock.advance(700);
            assertThat(f.engine.schedulerLagMs()).isEqualTo(700);
        }
    }
}
