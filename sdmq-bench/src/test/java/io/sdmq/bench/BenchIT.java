package io.sdmq.bench;

import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark as bench/run.sh and bench/peers.sh run it, at a few hundred messages: the bench's main against a
 * server jar on the test services, and against the peers that run in the bench's JVM. Each workload must come out
 * valid, with every message delivered once and none early; the figures themselves belong in BENCHMARKS.md, not here.
 */
class BenchIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path dir;
    private static TestDatabase db;
    private static String prefix;
    private static ServerJar.Started server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        prefix = TestServices.freshKeyPrefix();
        server = ServerJar.start(ServerJar.properties(db, TestServices.redisUrl(), prefix,
                Map.of("sdmq.recovery.auto-restore", "false", "sdmq.delivery.webhook.allowed-hosts", "127.0.0.1")));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void burstOfSinglePushes() throws Exception {
        JsonNode w1 = sdmq("W1", "--messages", "300", "--producers", "2", "--consumers", "2");

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
        JsonNode sync = sdmq("W1", concat(w1, "--via", "client"));
        JsonNode async = sdmq("W1", concat(w1, "--via", "client", "--push", "async"));
        JsonNode steady = sdmq("W3", concat(w3, "--via", "client"));
        JsonNode rawW1 = sdmq("W1", w1);
        JsonNode rawW3 = sdmq("W3", w3);

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
        JsonNode w1 = sdmq("W1", "--messages", "300", "--producers", "2", "--consumers", "2", "--topic-settings", "3");

        assertDeliveredOnce(w1, 300);
        assertThat(w1.path("topicSettings").asInt()).isEqualTo(3);
        HttpResponse<String> topics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(server.url() + "/topics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(topics.body()).contains("\"rateLimit\":1000000").contains("-other-2\"");
    }

    /** W7: DEAD messages put in the server's MySQL, every one brought back by one bulk requeue. */
    @Test
    void bulkRequeueOfDeadMessages() throws Exception {
        JsonNode w7 = sdmq("W7", "--messages", "2500");

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
        JsonNode w8 = sdmq("W8", "--messages", "2000", "--spread", "2", "--lead", "3", "--sink", "webhook");

        assertDeliveredOnce(w8, 2000);
        assertThat(w8.path("consumers").asInt()).isZero();
        assertThat(w8.path("deliveryRate").asLong()).isPositive();
    }

    @Test
    void batchPushes() throws Exception {
        JsonNode w2 = sdmq("W2", "--messages", "2000", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w2, 2000);
        assertThat(w2.path("perCall").asInt()).isEqualTo(1000);
    }

    @Test
    void steadyRate() throws Exception {
        JsonNode w3 = sdmq("W3", "--rate", "50", "--duration", "4", "--consumers", "2");

        assertDeliveredOnce(w3, 200);
        assertThat(w3.path("targetRate").asInt()).isEqualTo(50);
    }

    @Test
    void thunderingHerd() throws Exception {
        JsonNode w4 = sdmq("W4", "--messages", "500", "--lead", "3", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w4, 500);
        assertThat(w4.path("pushedBeforeDueSecond").asBoolean()).isTrue();
        assertThat(w4.path("lastDeliveryAfterDueSecondMs").isNumber()).isTrue();
    }

    @Test
    void scaleAfterAPreloadAndRestoreAfterTheBucketKeysAreDeleted() throws Exception {
        JsonNode w5 = sdmq("W5", "--messages", "200", "--preload", "1000", "--producers", "2", "--consumers", "2");

        assertDeliveredOnce(w5, 200);
        assertThat(w5.path("preloaded").asInt()).isEqualTo(1000);
        assertThat(w5.path("redisBytesPerPending").asLong()).isPositive();

        JsonNode w6 = sdmq("W6", "--preload", "500");

        assertThat(w6.path("valid").asBoolean()).isTrue();
        assertThat(w6.path("lost").asLong()).isZero();
        assertThat(w6.path("pendingAfterFlush").asLong()).isZero();
        assertThat(w6.path("pendingBefore").asLong()).isGreaterThanOrEqualTo(1500);
        assertThat(w6.path("pendingAfter").asLong()).isEqualTo(w6.path("pendingBefore").asLong());
        assertThat(w6.path("restored").asLong()).isEqualTo(w6.path("pendingBefore").asLong());
    }

    @Test
    void rawLimitsOfTheSameRedisAndMariaDbAndW1AsARatioOfTheirCommits() throws Exception {
        Path results = dir.resolve("raw-w1.jsonl");
        JsonNode raw = bench("raw", "--messages", "2000", "--jdbc", TestServices.server().jdbcUrl(),
                "--db-user", db.user(), "--db-password", db.password(), "--out", results.toString());
        sdmq("W1", "--messages", "100", "--out", results.toString());

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

    @Test
    void peersRunTheSameWorkloadAndTheComparisonPutsThemBesideSdmq() throws Exception {
        Path results = dir.resolve("peers.jsonl");
        JsonNode sdmq = sdmq("W1", "--messages", "200", "--label", "sdmq", "--out", results.toString());
        String[] w1 = {"--messages", "200", "--out", results.toString()};
        JsonNode redisson = bench("W1", concat(w1, redissonPeer()));
        JsonNode dbScheduler = bench("W1", concat(w1, dbSchedulerPeer()));

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
        String out = dir.resolve("peers-w2-w5.jsonl").toString();
        String[] redisson = redissonPeer();
        String[] dbScheduler = dbSchedulerPeer();
        String[] w2 = {"--messages", "2000", "--producers", "2", "--consumers", "2", "--out", out};
        String[] w5 = {"--messages", "200", "--preload", "1000", "--producers", "2", "--consumers", "2", "--out", out};

        JsonNode sdmqW2 = sdmq("W2", concat(w2, "--label", "sdmq"));
        JsonNode sdmqW5 = sdmq("W5", concat(w5, "--label", "sdmq"));
        JsonNode redissonW2 = bench("W2", concat(w2, redisson));
        JsonNode redissonW5 = bench("W5", concat(w5, redisson));
        JsonNode dbSchedulerW2 = bench("W2", concat(w2, dbScheduler));
        JsonNode dbSchedulerW5 = bench("W5", concat(w5, dbScheduler));

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

    /** The options that run a workload against Redisson, on the tests' Redis under a prefix of its own. */
    private static String[] redissonPeer() {
        return new String[] {"--peer", "redisson", "--label", "redisson", "--prefix", prefix + ":redisson"};
    }

    /** The options that run a workload against db-scheduler, in a fresh database on the tests' MariaDB. */
    private static String[] dbSchedulerPeer() {
        String peerDb = "sdmq_t_peer_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return new String[] {"--peer", "db-scheduler", "--label", "db-scheduler", "--jdbc",
                TestServices.server().jdbcUrl().replace("jdbc:mysql:", "jdbc:mariadb:"), "--peer-db", peerDb,
                "--db-user", db.user(), "--db-password", db.password()};
    }

    private static String[] concat(String[] options, String... more) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static void assertDeliveredOnce(JsonNode run, int messages) {
        assertThat(run.path("pushed").asInt()).as("pushed").isEqualTo(messages);
        assertThat(run.path("delivered").asInt()).as("delivered").isEqualTo(messages);
        assertThat(run.path("lost").asInt()).as("lost").isZero();
        assertThat(run.path("early").asLong()).as("early").isZero();
        assertThat(run.path("duplicates").asLong()).as("duplicates").isZero();
        assertThat(run.path("valid").asBoolean()).as("valid").isTrue();
        assertThat(run.path("latenessP99Ms").asDouble()).as("p99").isGreaterThanOrEqualTo(0);
    }

    /** A workload against the server, with its status log read for the server-side lateness. */
    private static JsonNode sdmq(String workload, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("--url", server.url(), "--server-pid",
                Long.toString(server.process().pid()), "--server-db", db.jdbcUrl(), "--db-user", db.user(),
                "--db-password", db.password()));
        args.addAll(List.of(options));
        return bench(workload, args.toArray(String[]::new));
    }

    /** Runs the bench's main on one workload; answers the JSON line it appended to its results file. */
    private static JsonNode bench(String workload, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("--workload", workload, "--redis", TestServices.redisUrl(),
                "--prefix", prefix, "--drain", "15", "--delay-scale", "0.2"));
        args.addAll(List.of(options));
        if (!args.contains("--out")) {
            args.addAll(List.of("--out", dir.resolve(workload + ".jsonl").toString()));
        }
        Bench.main(args.toArray(String[]::new));
        Path out = Path.of(args.get(args.indexOf("--out") + 1));
        List<String> lines = Files.readAllLines(out);
        return JSON.readTree(lines.get(lines.size() - 1));
    }
}
