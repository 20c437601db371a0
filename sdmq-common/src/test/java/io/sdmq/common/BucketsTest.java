package io.sdmq.common;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BucketsTest {

    @Test
    void consecutive_snowflake_ids_spread_over_all_buckets() {
        SnowflakeIdGenerator ids = new SnowflakeIdGenerator(3);
        int[] counts = new int[16];
        for (int i = 0; i < 16_000; i++) {
            counts[Buckets.of(ids.nextId(), 16)]++;
        }
        assertThat(Arrays.stream(counts).boxed().toList()).allMatch(c -> c > 500 && c < 1_500);
    }

    @Test
    void a_bucket_is_always_in_range_and_stable() {
        for (long id : new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 123_456_789_012L}) {
            assertThat(Buckets.of(id, 16)).isBetween(0, 15).isEqualTo(Buckets.of(id, 16));
        }
    }

    @Test
    void positions_are_grouped_by_bucket_in_bucket_order_and_keep_their_order_within_one() {
        List<Long> ids = LongStream.range(0, 40).boxed().toList();

        Map<Integer, List<Integer>> byBucket = Buckets.positions(ids, 4);

        assertThat(List.copyOf(byBucket.keySet())).isSorted();
        assertThat(byBucket.values().stream().flatMap(List::stream).sorted().toList())
                .isEqualTo(IntStream.range(0, 40).boxed().toList());
        byBucket.forEach((bucket, positions) -> {
            assertThat(positions).isSorted();
            assertThat(positions).allMatch(i -> Buckets.of(ids.get(i), 4) == bucket);
        });
        assertThat(Buckets.positions(List.of(), 4)).isEmpty();
    }

    @Test
    void worker_numbers_outside_the_snowflake_range_are_refused() {
        assertThatThrownBy(() -> new SnowflakeIdGenerator(1024))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
