package io.sdmq.bench;

import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives a running sdmq server over HTTP and measures it (see BENCHMARKS.md).
 *
 * <pre>
 * --workload raw|W1|..|W8           what to run (raw: Redis ZADD and MariaDB INSERT limits, MariaDB commits from
 *                                   one connection and from --producers at once, Redis layout floor; W7: a bulk
 *                                   requeue of --messages DEAD messages put in --server-db, see BulkRequeue; W8:
 *                                   push delivery of --messages due over --spread S (10) after --lead S; with no
 *                                   --sink, to consumers that poll)
 * --sink webhook|rabbitmq           W8: the receiver in this process the topic delivers to (a webhook needs the
 *                                   server's sdmq.delivery.webhook.allowed-hosts=127.0.0.1)
 * --rabbitmq amqp://guest:guest@127.0.0.1:5672   the broker of --sink rabbitmq (the server's own)
 * --url http://127.0.0.1:8080       the server
 * --via http|client --linger MS     drive it over raw HTTP (default), or through the Java client (pushes gathered
 *                                   into batches, each consumer one POST /get per batch lingering MS, default 20)
 * --push-linger MS --push-in-flight N --push-batch N   with --via client: the client's producer linger, batches
 *                                   in flight and batch size (default: the client's defaults)
 * --push sync|async                 W1, W5 producers wait for each push's answer (default), or push without waiting
 * --topic-settings N                W1..W5 on sdmq: give the run's topic and N - 1 others settings first (defaults,
 *                                   and rate and in-flight limits far above the run's), see TopicSettings
 * --peer redisson|db-scheduler --warmup N   run W1 to W5 against a peer instead (see Peers), in this JVM, after a
 *                                           W1 of N messages that is not measured; redisson uses --redis and
 *                                           --prefix, db-scheduler --jdbc (default jdbc:mariadb://127.0.0.1:3306/;
 *                                           it makes the database --peer-db, default sdmq_peer)
 * --messages N --producers P --consumers C --rate R --duration S --inflight N --preload N --lead S
 * --drain S (give up once nothing arrived for S seconds past the last due time) --max-drain S
 * --delay-scale F                   W1, W2, W3 and W5's delays times F, 0 &lt; F &lt;= 1 (default 1)
 * --redis redis://127.0.0.1:6379 --prefix sdmq     the server's Redis and key prefix (raw, W5, W6)
 * --server-pid PID                                 also report the server process's CPU seconds (Linux /proc)
 * --mariadb-pid PID --redis-pid PID                also report those processes' CPU seconds
 * --jdbc jdbc:mysql://127.0.0.1:3306/ --db-user root --db-password ''   (raw)
 * --server-db jdbc:mysql://127.0.0.1:3306/sdmq   the server's database: also report the lateness its status log
 *                                                 records (moved to READY, RESERVED by a pop), W1..W5
 * --out results.jsonl --scale 0.2 --label W1-p32    append one JSON line; scale and label are recorded in it
 * --report results.jsonl                           print the Markdown tables of a results file
 * --compare results.jsonl                          print sdmq beside the peers (bench/peers.sh)
 * --jfr recording.jfr --top 15 --from MS --to MS   print where a recording's CPU went (within epoch ms)
 * </pre>
 */
public final class Bench {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        String markdown = markdown(options);
        if (markdown != null) {
            System.out.print(markdown);
            return;
        }
        String workload = options.text("workload", "W1");
        Map<String, Object> result = runOnTarget(workload, options);
        String line = JSON.writeValueAsString(result);
        if (options.has("out")) {
            Files.writeString(Path.of(options.text("out", "")), line + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        System.out.println(workload);
        result.forEach((key, value) -> System.out.printf("  %-28s %s%n", key, value));
        System.out.println(line);
    }

    /** What --report, --compare or --jfr print; null when the options ask for a workload to be run. */
    private static String markdown(Options options) throws IOException {
        if (options.has("report")) {
            return Report.markdown(Files.readAllLines(Path.of(options.text("report", ""))));
        }
        if (options.has("compare")) {
            return Report.comparison(Files.readAllLines(Path.of(options.text("compare", ""))));
        }
        if (options.has("jfr")) {
            return Profile.markdown(Path.of(options.text("jfr", "")), options.integer("top", 15),
                    Long.parseLong(options.text("from", "0")), Long.parseLong(options.text("to", "0")));
        }
        return null;
    }

    /** Runs the workload against the server at --url, or against the peer named by --peer in this JVM. */
    private static Map<String, Object> runOnTarget(String workload, Options options) throws Exception {
        String peer = options.text("peer", "");
        Map<String, Object> result;
        try (Target target = peer.isEmpty() ? sdmq(options) : Peers.open(peer, options)) {
            Workloads workloads = new Workloads(target, options);
            if (!peer.isEmpty()) {
                warmUpPeer(workload, workloads, options);
            }
            result = measured(workload, workloads, options);
            if (!peer.isEmpty()) {
                result.put("peer", peer);
            }
        }
        return result;
    }

    /** The sdmq server at --url, over raw HTTP, or through the Java client with --via client. */
    private static Target sdmq(Options options) {
        String url = options.text("url", "http://127.0.0.1:8080");
        String prefix = options.text("prefix", "sdmq");
        return switch (options.text("via", "http")) {
            case "http" -> new SdmqHttp(url, prefix);
            case "client" -> new ClientTarget(url, prefix, options.integer("linger", 20),
                    options.integer("push-linger", -1), options.integer("push-in-flight", 0),
                    options.integer("push-batch", 0));
            default -> throw new IllegalArgumentException("--via: http or client, not " + options.text("via", ""));
        };
    }

    /** A peer runs W1 to W5, after a W1 of --warmup messages that is not measured. */
    private static void warmUpPeer(String workload, Workloads workloads, Options options) throws Exception {
        if (!List.of("W1", "W2", "W3", "W4", "W5").contains(workload)) {
            throw new IllegalArgumentException("a peer runs W1 to W5, not " + workload);
        }
        int warmup = options.integer("warmup", 0);
        if (warmup > 0) {
            // the peer runs in this JVM: its code is compiled in a first run, as sdmq's is in the warm-ups
            workloads.burst("warmup", warmup);
        }
    }

    private static long benchCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Runs the workload with the CPU seconds of this JVM and of the processes given by --*-pid around it. */
    private static Map<String, Object> measured(String workload, Workloads workloads, Options options)
            throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", workload);
        result.put("label", options.text("label", workload));
        result.put("scale", options.text("scale", "1"));
        result.put("date", Instant.now().toString());
        ProcessCpu cpu = ProcessCpu.of(options);
        Map<String, Long> ticks = cpu.ticks();
        long benchCpu = benchCpuNanos();
        long start = System.nanoTime();
        result.putAll(run(workload, workloads, options));
        double seconds = (System.nanoTime() - start) / 1e9;
        result.put("benchCpuSeconds", Workloads.round3((benchCpuNanos() - benchCpu) / 1e9));
        cpu.putSince(ticks, "", result);
        if (result.get("serverCpuSeconds") instanceof Double server) {
            result.put("serverCores", Workloads.round3(server / seconds));
        }
        return result;
    }

    private static Map<String, Object> run(String workload, Workloads workloads, Options options) throws Exception {
        switch (workload) {
            case "raw":
                return workloads.raw(options.integer("messages", 200_000), options.integer("producers", 4),
                        options.text("jdbc", "jdbc:mysql://127.0.0.1:3306/"));
            case "W1":
                return workloads.burst("W1", options.integer("messages", 100_000));
            case "W2":
                return workloads.batch(options.integer("messages", 500_000));
            case "W3":
                return workloads.steady(options.integer("rate", 1_000), options.integer("duration", 60));
            case "W4": {
                int n = options.integer("messages", 100_000);
                return workloads.herd(n, options.integer("lead", 5 + n / 10_000));
            }
            case "W5":
                return workloads.scale(options.integer("messages", 100_000), options.integer("preload", 1_000_000));
            case "W6":
                return workloads.restore(options.integer("preload", 1_000_000));
            case "W7":
                return workloads.bulkRequeue(options.integer("messages", 1_000_000));
            case "W8": {
                int n = options.integer("messages", 100_000);
                return workloads.sink(n, options.integer("spread", 10), options.integer("lead", 5 + n / 10_000));
            }
            default:
                throw new IllegalArgumentException("unknown workload " + workload + "; raw, W1 .. W8");
        }
    }
}
