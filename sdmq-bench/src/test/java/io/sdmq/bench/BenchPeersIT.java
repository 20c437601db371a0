package io.sdmq.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.sdmq.bench.BenchTarget.assertDeliveredOnce;
import static io.sdmq.bench.BenchTarget.concat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark as bench/peers.sh runs it, at a few hundred messages: sdmq and the peers that run in the bench's JVM
 * (Redisson, db-scheduler) on the same workloads, and the comparison of their results.
 */
class BenchPeersIT {
    @RegisterExtension
    static final BenchTarget target = new BenchTarget();

    @Test
    void peersRunTheSameWorkloadAndTheComparisonPutsThemBesideSdmq() throws Exception {
        Path results = target.file("peers.jsonl");
        JsonNode sdmq = target.sdmq("W1", "--messages", "200", "--label", "sdmq", "--out", results.toString());
        String[] w1 = {"--messages", "200", "--out", results.toString()};
        JsonNode redisson = target.bench("W1", concat(w1, target.redissonPeer()));
        JsonNode dbScheduler = target.bench("W1", concat(w1, target.dbSchedulerPeer()));

        for (JsonNode run : List.of(sdmq, redisson, dbScheduler)) {
            assertDeliveredOnce(run, 200);
        }
        String comparison = Report.comparison(Files.readAllLines(results));
        assertThat(comparison).contains("| sdmq |", "| redisson |", "| db-scheduler |");
        assertThat(Report.markdown(Files.readAllLines(results)))
                .contains("| sdmq (4 producers) | 200 |", "| redisson (4 producers) | 200 |");
    }

    @Test
    void peersRunTheBatchAndScaleWorkloadsAndTheComparisonGivesTheirRedisBytes() throws Exception {
        String out = target.file("peers-w2-w5.jsonl").toString();
        String[] redisson = target.redissonPeer();
        String[] dbScheduler = target.dbSchedulerPeer();
        String[] w2 = {"--messages", "2000", "--producers", "2", "--consumers", "2", "--out", out};
        String[] w5 = {"--messages", "200", "--preload", "1000", "--producers", "2", "--consumers", "2", "--out", out};

        JsonNode sdmqW2 = target.sdmq("W2", concat(w2, "--label", "sdmq"));
        JsonNode sdmqW5 = target.sdmq("W5", concat(w5, "--label", "sdmq"));
        JsonNode redissonW2 = target.bench("W2", concat(w2, redisson));
        JsonNode redissonW5 = target.bench("W5", concat(w5, redisson));
        JsonNode dbSchedulerW2 = target.bench("W2", concat(w2, dbScheduler));
        JsonNode dbSchedulerW5 = target.bench("W5", concat(w5, dbScheduler));

        for (JsonNode run : List.of(sdmqW2, redissonW2, dbSchedulerW2)) {
            assertDeliveredOnce(run, 2000);
        }
        for (JsonNode run : List.of(sdmqW5, redissonW5, dbSchedulerW5)) {
            assertDeliveredOnce(run, 200);
            assertThat(run.path("preloaded").asInt()).isEqualTo(1000);
        }
        // each pending message keeps at least its body in Redis; db-scheduler keeps it in MariaDB only
        assertThat(redissonW5.path("redisBytesPerPending").asLong()).isGreaterThan(Workloads.BODY_SIZE);
        assertThat(dbSchedulerW5.path("redisBytesPerPending").isNull()).isTrue();
        String comparison = Report.comparison(Files.readAllLines(Path.of(out)));
        assertThat(comparison).contains("| W2 push msgs/s (1 000 per call) |",
                "| redisson | " + Report.count(redissonW2.path("pushRate").asDouble()) + " |",
                "| " + Report.count(redissonW5.path("redisBytesPerPending").asDouble()) + " |");
    }
}
