package io.sdmq.core.redis;

import io.sdmq.core.spi.TopicLimits.Grant;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The topic limits in a real Redis, driven at chosen times: two instances are two adapters on one prefix. */
class RedisTopicLimitsIT {
    private static final long T0 = 1_800_000_000_000L;

    private final String prefix = TestServices.freshKeyPrefix();
    private final RedisTopicLimits one = new RedisTopicLimits(TestServices.redisTemplate(), prefix);
    private final RedisTopicLimits other = new RedisTopicLimits(TestServices.redisTemplate(), prefix);

    @Test
    void a_rate_limit_is_shared_within_a_second_and_unused_slots_come_back() {
        Grant first = one.grant("t", 7, T0, 10, null);
        Grant second = other.grant("t", 7, T0 + 500, 10, null);
        assertThat(first.count()).isEqualTo(7);
        assertThat(second.count()).isEqualTo(3);

        other.taken("t", second, List.of(new long[]{1, T0 + 30_000}));
        assertThat(one.grant("t", 7, T0 + 999, 10, null).count()).as("two slots given back").isEqualTo(2);
        assertThat(one.grant("t", 7, T0 + 1_000, 10, null).count()).as("the next second").isEqualTo(7);
    }

    @Test
    void max_in_flight_counts_held_slots_and_reservations_until_they_end() {
        Grant first = one.grant("t", 3, T0, null, 4);
        assertThat(first.count()).isEqualTo(3);
        assertThat(other.grant("t", 3, T0, null, 4).count()).as("a slot held for the first pop").isEqualTo(1);

        one.taken("t", first, List.of(new long[]{11, T0 + 5_000}, new long[]{12, T0 + 60_000}));
        assertThat(other.grant("t", 3, T0 + 1, null, 4).count()).as("its unused slot freed").isEqualTo(1);

        one.released("t", List.of(11L));
        assertThat(other.grant("t", 3, T0 + 2, null, 4).count()).isEqualTo(1);

        one.extended("t", 12, T0 + 90_000);
        one.extended("t", 99, T0 + 90_000);
        // at T0 + 61 s only 12 (touched) is reserved; the placeholders of the grants above expired after 10 s
        assertThat(other.grant("t", 9, T0 + 61_000, null, 4).count()).isEqualTo(3);
    }

    @Test
    void topics_are_limited_apart() {
        assertThat(one.grant("a", 5, T0, 5, 5).count()).isEqualTo(5);
        assertThat(one.grant("b", 5, T0, 5, 5).count()).isEqualTo(5);
        assertThat(one.grant("a", 5, T0, 5, 5).count()).isZero();
    }
}
