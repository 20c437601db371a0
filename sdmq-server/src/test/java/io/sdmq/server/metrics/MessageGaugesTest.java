package io.sdmq.server.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MessageGaugesTest {

    @Test
    void a_quick_read_waits_the_refresh_period_and_a_slow_one_twenty_times_its_own_length() {
        assertThat(MessageGauges.pauseAfter(15_000, 40)).isEqualTo(15_000);
        assertThat(MessageGauges.pauseAfter(15_000, 750)).isEqualTo(15_000);
        assertThat(MessageGauges.pauseAfter(15_000, 4_000)).isEqualTo(80_000);
    }
}
