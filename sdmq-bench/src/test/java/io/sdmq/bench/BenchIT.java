package io.sdmq.bench;

import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.sdmq.bench.BenchTarget.assertDeliveredOnce;
import static io.sdmq.bench.BenchTarget.concat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark as bench/run.sh runs it, at a few hundred messages: the bench's main against a server jar on the test
 * services; {@link BenchPeersIT} runs the peers against a server of its own, so that the two classes can run at once.
 * Each workload must come out valid, with every message delivered once and none early; the figures themselves belong
 * in BENCHMARKS.md, not here.
 */
class BenchIT {
    @RegisterExtension
    static final BenchTarget target = new BenchTarget();

    @Test
    void burstOfSinglePushes() throws Exception {
        JsonNode w1 = target.sdmq("W1", "--messages", "300", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w1, 300);
        assertThat(w1.path("pushRate").asLong()).isPositive();
        assertThat(w1.path("serverMovedCount").asInt()).isEqualTo(300);
        assertThat(w1.path("serverPoppedCount").asInt()).isEqualTo(300);
        assertThat(w1.path("serverCpuSeconds").asDouble()).isPositive();
    }

    /**
     * Through the Java client: pushes gathered into batches (waiting for each answer, and not), each consumer one
     * call per batch; the server answers fewer calls per message than over raw HTTP.
     */
    @Test
    void burstAndSteadyRateThroughTheClient() throws Exception {
        String[] w1 = {"--messages", "300", "--producers", "4", "--consumers", "2"};
        String[] w3 = {"--rate", "50", "--duration", "4", "--consumers", "2"};
        JsonNode sync = target.sdmq("W1", concat(w1, "--via", "client"));
        JsonNode async = target.sdmq("W1", concat(w1, "--via", "client", "--push", "async"));
        JsonNode steady = target.sdmq("W3", concat(w3, "--via", "client"));
        JsonNode rawW1 = target.sdmq("W1", w1);
        JsonNode rawW3 = target.sdmq("W3", w3);

        assertDeliveredOnce(sync, 300);
        assertDeliveredOnce(async, 300);
        assertDeliveredOnce(steady, 200);
        for (JsonNode run : List.of(sync, async, steady)) {
            assertThat(run.path("finishErrors").asLong()).as("finishErrors").isZero();
        }
        double raw = rawW1.path("callsPerMessage").asDouble();
        assertThat(raw).isGreaterThan(1.0);
        assertThat(sync.path("callsPerMessage").asDouble()).isPositive().isLessThan(raw);
        assertThat(async.path("callsPerMessage").asDouble()).isPositive().isLessThan(raw);
        assertThat(steady.path("callsPerMessage").asDouble()).isPositive()
                .isLessThan(rawW3.path("callsPerMessage").asDouble());
    }

    /** Topics with settings: the run's own (its limits far above the run) and others, set on the server first. */
    @Test
    void burstOnATopicWithSettings() throws Exception {
        JsonNode w1 = target.sdmq("W1", "--messages", "300", "--producers", "2", "--consumers", "2",
                "--topic-settings", "3");

        assertDeliveredOnce(w1, 300);
        assertThat(w1.path("topicSettings").asInt()).isEqualTo(3);
        HttpResponse<String> topics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(target.server.url() + "/topics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(topics.body()).contains("\"rateLimit\":1000000").contains("-other-2\"");
    }

    /** W7: DEAD messages put in the server's MySQL, every one brought back by one bulk requeue. */
    @Test
    void bulkRequeueOfDeadMessages() throws Exception {
        JsonNode w7 = target.sdmq("W7", "--messages", "2500");

        assertThat(w7.path("requeued").asLong()).isEqualTo(2500);
        assertThat(w7.path("stillDead").asLong()).isZero();
        assertThat(w7.path("missing").asLong()).as("rows gone from MySQL").isZero();
        assertThat(w7.path("requeueRate").asLong()).isPositive();
        assertThat(w7.path("valid").asBoolean()).isTrue();
        assertThat(w7.path("purged").asLong()).as("left nothing pending for the other workloads").isEqualTo(2500);
    }

    /** W8: messages delivered by the server to a webhook receiver in the bench's process, each once, none early. */
    @Test
    void pushDeliveryToAWebhook() throws Exception {
        JsonNode w8 = target.sdmq("W8", "--messages", "2000", "--spread", "2", "--lead", "3", "--sink", "webhook");

        assertDeliveredOnce(w8, 2000);
        assertThat(w8.path("consumers").asInt()).isZero();
        assertThat(w8.path("deliveryRate").asLong()).isPositive();
    }

    @Test
    void batchPushes() throws Exception {
        JsonNode w2 = target.sdmq("W2", "--messages", "2000", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w2, 2000);
        assertThat(w2.path("perCall").asInt()).isEqualTo(1000);
    }

    @Test
    void steadyRate() throws Exception {
        JsonNode w3 = target.sdmq("W3", "--rate", "50", "--duration", "4", "--consumers", "2");

        assertDeliveredOnce(w3, 200);
        assertThat(w3.path("targetRate").asInt()).isEqualTo(50);
    }

    @Test
    void thunderingHerd() throws Exception {
        JsonNode w4 = target.sdmq("W4", "--messages", "500", "--lead", "3", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w4, 500);
        assertThat(w4.path("pushedBeforeDueSecond").asBoolean()).isTrue();
        assertThat(w4.path("lastDeliveryAfterDueSecondMs").isNumber()).isTrue();
    }

    @Test
    void scaleAfterAPreloadAndRestoreAfterTheBucketKeysAreDeleted() throws Exception {
        JsonNode w5 = target.sdmq("W5", "--messages", "200", "--preload", "1000", "--producers", "2",
                "--consumers", "2");

        assertDeliveredOnce(w5, 200);
        assertThat(w5.path("preloaded").asInt()).isEqualTo(1000);
        assertThat(w5.path("redisBytesPerPending").asLong()).isPositive();

        JsonNode w6 = target.sdmq("W6", "--preload", "500");

        assertThat(w6.path("valid").asBoolean()).isTrue();
        assertThat(w6.path("lost").asLong()).isZero();
        assertThat(w6.path("pendingAfterFlush").asLong()).isZero();
        assertThat(w6.path("pendingBefore").asLong()).isGreaterThanOrEqualTo(1500);
        assertThat(w6.path("pendingAfter").asLong()).isEqualTo(w6.path("pendingBefore").asLong());
        assertThat(w6.path("restored").asLong()).isEqualTo(w6.path("pendingBefore").asLong());
    }

    @Test
    void rawLimitsOfTheSameRedisAndMariaDbAndW1AsARatioOfTheirCommits() throws Exception {
        Path results = target.file("raw-w1.jsonl");
        JsonNode raw = target.bench("raw", "--messages", "2000", "--jdbc", TestServices.server().jdbcUrl(),
                "--db-user", target.db.user(), "--db-password", target.db.password(), "--out", results.toString());
        target.sdmq("W1", "--messages", "100", "--out", results.toString());

        assertThat(raw.path("zaddPerSecond").asLong()).isPositive();
        assertThat(raw.path("insertRowsPerSecond").asLong()).isPositive();
        assertThat(raw.path("commitsPerSecond").asLong()).isPositive();
        assertThat(raw.path("commitWriters").asInt()).isEqualTo(4);
        assertThat(raw.path("writersCommitsPerSecond").asLong()).isPositive();
        assertThat(raw.path("innodbBufferPoolMiB").asLong()).isPositive();
        // a hash entry holding the 200-byte body plus a zset entry cannot take less than the body
        assertThat(raw.path("layoutFloorBytesPerMessage").asLong()).isGreaterThan(Workloads.BODY_SIZE);
        assertThat(Report.markdown(Files.readAllLines(results))).contains(
                "| MariaDB durable commits from 4 connections at once (one row each) | "
                        + Report.count(raw.path("writersCommitsPerSecond").asDouble()) + " |",
                "× the raw commits of as many connections");
    }
}
