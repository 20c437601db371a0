package io.sdmq.client;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {
    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), new Random(42));

    @Test
    void the_ceiling_doubles_from_the_first_wait_up_to_the_longest() {
        assertThat(backoff.ceiling(1)).isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(backoff.ceiling(2)).isEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(backoff.ceiling(4)).isEqualTo(Duration.ofMillis(800).toNanos());
        assertThat(backoff.ceiling(5)).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(backoff.ceiling(1_000)).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void each_wait_lies_between_half_its_ceiling_and_its_ceiling_and_the_waits_differ() {
        for (int retry = 1; retry <= 8; retry++) {
            Set<Duration> waits = new HashSet<>();
            for (int draw = 0; draw < 50; draw++) {
                Duration wait = backoff.before(retry);
                assertThat(wait.toNanos()).isBetween(backoff.ceiling(retry) / 2, backoff.ceiling(retry));
                waits.add(wait);
            }
            assertThat(waits).as("jitter at retry %d", retry).hasSizeGreaterThan(40);
        }
    }
}
