package io.sdmq.bench;

import cn.hutool.core.io.FileUtil;
import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server jar on the test services, in a fresh database under a fresh key prefix, started before a test class's
 * tests and stopped after them (register it as a static {@code @RegisterExtension} field), and the bench's main run
 * against it or against a peer; each run's JSON lines go to files in a temporary folder of the class's own.
 */
final class BenchTarget implements BeforeAllCallback, AfterAllCallback {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    TestDatabase db;
    String prefix;
    ServerJar.Started server;
    private Path dir;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("sdmq-bench-it");
        db = TestServices.freshDatabase();
        prefix = TestServices.freshKeyPrefix();
        server = ServerJar.start(ServerJar.properties(db, TestServices.redisUrl(), prefix,
                Map.of("sdmq.recovery.auto-restore", "false", "sdmq.delivery.webhook.allowed-hosts", "127.0.0.1")));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
        FileUtil.del(dir.toFile());
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    /** A workload against the server, with its status log read for the server-side lateness. */
    JsonNode sdmq(String workload, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("--url", server.url(), "--server-pid",
                Long.toString(server.process().pid()), "--server-db", db.jdbcUrl(), "--db-user", db.user(),
                "--db-password", db.password()));
        args.addAll(List.of(options));
        return bench(workload, args.toArray(String[]::new));
    }

    /** Runs the bench's main on one workload; answers the JSON line it appended to its results file. */
    JsonNode bench(String workload, String... options) throws Exception {
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

    /** The options that run a workload against Redisson, on the tests' Redis under a prefix of its own. */
    String[] redissonPeer() {
        return new String[] {"--peer", "redisson", "--label", "redisson", "--prefix", prefix + ":redisson"};
    }

    /** The options that run a workload against db-scheduler, in a fresh database on the tests' MariaDB. */
    String[] dbSchedulerPeer() {
        String peerDb = "sdmq_t_peer_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return new String[] {"--peer", "db-scheduler", "--label", "db-scheduler", "--jdbc",
                TestServices.server().jdbcUrl().replace("jdbc:mysql:", "jdbc:mariadb:"), "--peer-db", peerDb,
                "--db-user", db.user(), "--db-password", db.password()};
    }

    static String[] concat(String[] options, String... more) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    static void assertDeliveredOnce(JsonNode run, int messages) {
        assertThat(run.path("pushed").asInt()).as("pushed").isEqualTo(messages);
        assertThat(run.path("delivered").asInt()).as("delivered").isEqualTo(messages);
        assertThat(run.path("lost").asInt()).as("lost").isZero();
        assertThat(run.path("early").asLong()).as("early").isZero();
        assertThat(run.path("duplicates").asLong()).as("duplicates").isZero();
        assertThat(run.path("valid").asBoolean()).as("valid").isTrue();
        assertThat(run.path("latenessP99Ms").asDouble()).as("p99").isGreaterThanOrEqualTo(0);
    }
}
