package io.sdmq.server.series;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class LatenessBucketsTest {

    @Test
    void every_lateness_up_to_seventy_minutes_reads_back_within_the_stated_error() {
        for (long ms = 0; ms < (1L << 22); ms += 1 + ms / 200) {
            long read = LatenessBuckets.value(LatenessBuckets.index(ms));
            assertThat((double) Math.abs(read - ms)).as("%d ms reads %d", ms, read)
                    .isLessThanOrEqualTo(0.045 * ms + 0.5);
        }
    }

    @Test
    void small_values_read_back_exactly_and_the_buckets_keep_the_order() {
        for (long ms = 0; ms <= 11; ms++) {
            assertThat(LatenessBuckets.value(LatenessBuckets.index(ms))).isEqualTo(ms);
        }
        for (long ms = 1; ms < 5_000_000; ms += 1 + ms / 50) {
            assertThat(LatenessBuckets.index(ms)).isGreaterThanOrEqualTo(LatenessBuckets.index(ms - 1));
        }
        assertThat(LatenessBuckets.index(-5)).isZero();
        assertThat(LatenessBuckets.index(Long.MAX_VALUE)).isEqualTo(LatenessBuckets.COUNT - 1);
        assertThat(LatenessBuckets.value(LatenessBuckets.COUNT - 1)).isEqualTo(1L << 22);
    }

    @Test
    void percentiles_over_the_buckets_are_within_the_error_of_the_nearest_rank_percentiles_of_the_values() {
        Random random = new Random(47);
        List<Long> values = new ArrayList<>();
        long[] counts = new long[LatenessBuckets.COUNT];
        for (int i = 0; i < 10_000; i++) {
            long ms = (long) Math.exp(random.nextDouble() * 14);
            values.add(ms);
            counts[LatenessBuckets.index(ms)]++;
        }
        values.sort(null);
        for (double p : new double[] {0.5, 0.9, 0.99, 1.0}) {
            long truth = values.get((int) Math.ceil(p * values.size()) - 1);
            assertThat((double) Math.abs(LatenessBuckets.percentile(counts, p) - truth)).as("p%s", p)
                    .isLessThanOrEqualTo(0.045 * truth + 0.5);
        }
        assertThat(LatenessBuckets.percentile(new long[LatenessBuckets.COUNT], 0.5)).isNull();
    }
}
