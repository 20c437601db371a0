package io.sdmq.server.series;

/**
 * Fixed log-scale buckets of lateness in ms: bucket 0 holds 0 ms; bucket {@code i} from 1 holds
 * [2<sup>(i-1)/8</sup>, 2<sup>i/8</sup>), eight buckets per doubling; the last one holds 2<sup>22</sup> ms (about 70
 * minutes) and more. A bucket reads as the geometric middle of its bounds rounded to the ms, so what it reads is
 * within 4.5% plus 0.5 ms of every value it holds (values up to 11 ms read back exactly), except in the last bucket,
 * which reads as its lower bound. A percentile taken over the buckets has the same error, since the buckets keep the
 * order of the values.
 */
final class LatenessBuckets {
    private static final int PER_DOUBLING = 8;
    private static final int DOUBLINGS = 22;
    /** How many buckets there are. */
    static final int COUNT = 2 + PER_DOUBLING * DOUBLINGS;
    private static final int LAST = COUNT - 1;

    private LatenessBuckets() {
    }

    /** The bucket of a lateness in ms; a negative one counts as 0. */
    static int index(long ms) {
        if (ms <= 0) {
            return 0;
        }
        int i = 1 + (int) Math.floor(PER_DOUBLING * Math.log(ms) / Math.log(2));
        return Math.min(i, LAST);
    }

    /** What a bucket reads as, in ms. */
    static long value(int index) {
        if (index == 0) {
            return 0;
        }
        if (index == LAST) {
            return 1L << DOUBLINGS;
        }
        return Math.round(Math.pow(2, (index - 0.5) / PER_DOUBLING));
    }

    /**
     * The nearest-rank percentile {@code p} (0 &lt; p &le; 1) of the values counted in {@code counts}, one count per
     * bucket, as its bucket reads; null when nothing was counted.
     */
    static Long percentile(long[] counts, double p) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(p * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return value(i);
            }
        }
        throw new IllegalStateException("a rank beyond the total of the counts is a bug");
    }
}
