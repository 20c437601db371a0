package io.sdmq.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The counts every figure of BENCHMARKS.md rests on: lost, early, duplicates and the lateness percentiles. */
class TrackerTest {
    private static final long DUE = 1_795_000_000_000L;

    @Test
    void countsLostEarlyAndDuplicateDeliveriesAndTheLatenessOfFirstOnes() {
        Tracker tracker = new Tracker(5);
        tracker.acknowledged(0, 4);
        tracker.received(List.of(delivered(0, DUE)), micros(DUE + 2));
        tracker.received(List.of(delivered(1, DUE)), micros(DUE + 10));
        tracker.received(List.of(delivered(1, DUE)), micros(DUE + 500));
        tracker.received(List.of(delivered(2, DUE)), micros(DUE - 3));
        tracker.pushingDone();

        Map<String, Object> result = summary(tracker);

        assertThat(tracker.allDelivered()).isFalse();
        assertThat(result).containsEntry("pushed", 4).containsEntry("delivered", 3)
                .containsEntry("lost", 1).containsEntry("early", 1L).containsEntry("earlyMaxMs", 3.0)
                .containsEntry("duplicates", 1L).containsEntry("unknown", 0L).containsEntry("dueMismatch", 0L);
        // first deliveries only: -3, 2 and 10 ms late, nearest rank
        assertThat(result).containsEntry("latenessP50Ms", 2.0).containsEntry("latenessP99Ms", 10.0)
                .containsEntry("latenessMaxMs", 10.0);
    }

    @Test
    void aMessageNeverAcknowledgedIsNotLostAndAllDeliveredWaitsForTheEndOfPushing() {
        Tracker tracker = new Tracker(2);
        tracker.acknowledged(0, 1);
        tracker.received(List.of(delivered(0, DUE)), micros(DUE));

        assertThat(tracker.allDelivered()).isFalse();
        tracker.pushingDone();
        assertThat(tracker.allDelivered()).isTrue();
        assertThat(summary(tracker)).containsEntry("lost", 0).containsEntry("delivered", 1)
                .containsEntry("latenessP50Ms", 0.0);
    }

    @Test
    void bodiesNotOfThisRunAndDueTimesTheTargetMisreportsAreCounted() {
        Tracker tracker = new Tracker(1);
        tracker.acknowledged(0, 1);
        tracker.received(List.of(new Target.Delivered("a", "not a bench body", DUE),
                delivered(7, DUE), new Target.Delivered("0", Messages.body(0, DUE, 40), DUE + 1)), micros(DUE));

        assertThat(summary(tracker)).containsEntry("unknown", 2L).containsEntry("dueMismatch", 1L)
                .containsEntry("delivered", 1);
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = LongStream.rangeClosed(1, 1_000).toArray();

        assertThat(Tracker.percentile(sorted, 0.5)).isEqualTo(500);
        assertThat(Tracker.percentile(sorted, 0.99)).isEqualTo(990);
        assertThat(Tracker.percentile(sorted, 0.999)).isEqualTo(999);
        assertThat(Tracker.percentile(new long[] {42}, 0.5)).isEqualTo(42);
        assertThat(Tracker.percentile(new long[0], 0.99)).isZero();
        assertThat(Tracker.millis(1_234_567)).isEqualTo(1234.57);
    }

    private static Target.Delivered delivered(int seq, long due) {
        return new Target.Delivered(Integer.toString(seq), Messages.body(seq, due, Workloads.BODY_SIZE), due);
    }

    private static long micros(long epochMillis) {
        return epochMillis * 1_000;
    }

    private static Map<String, Object> summary(Tracker tracker) {
        Map<String, Object> result = new LinkedHashMap<>();
        tracker.summarise(result);
        return result;
    }
}
