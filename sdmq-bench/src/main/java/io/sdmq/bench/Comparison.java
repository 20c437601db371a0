package io.sdmq.bench;

import tools.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.sdmq.bench.Report.count;

/**
 * sdmq beside the peers of one bench/peers.sh run: per target (its label) its W1, W3 and W4, then (when the run has
 * them) its W2 and W5, and the ratios that say by how much sdmq leads (above 1) or trails (below 1).
 */
final class Comparison {
    /** Where each target keeps an acknowledged message. */
    private static final Map<String, String> KEPT_IN = Map.of(
            "sdmq", "MySQL (committed before a push answers) and Redis",
            "sdmq-client", "the same, through the Java client",
            "sdmq-client-async", "the same, through the Java client's pushAsync",
            "redisson", "Redis only",
            "db-scheduler", "MySQL",
            "bullmq", "Redis only");

    private Comparison() {
    }

    static String markdown(List<String> lines) {
        Map<String, Map<String, JsonNode>> byTarget = new LinkedHashMap<>();
        for (JsonNode result : Report.results(lines)) {
            byTarget.computeIfAbsent(result.path("label").asString(), label -> new LinkedHashMap<>())
                    .put(result.path("workload").asString(), result);
        }
        Map<String, JsonNode> sdmq = byTarget.getOrDefault("sdmq", Map.of());
        JsonNode raw = byTarget.getOrDefault("raw", Map.of()).get("raw");
        byTarget.remove("raw");
        StringBuilder md = new StringBuilder();
        if (raw != null) {
            md.append(String.format(Locale.ROOT, "This machine's raw limits, measured in the same run: Redis pipelined "
                            + "ZADD %s/s, MariaDB batched INSERT %s rows/s, "
                            + "durable commits %s/s on one connection%s.%n%n",
                    count(raw.path("zaddPerSecond").asDouble()), count(raw.path("insertRowsPerSecond").asDouble()),
                    count(raw.path("commitsPerSecond").asDouble()), raw.has("writersCommitsPerSecond")
                            ? " and " + count(raw.path("writersCommitsPerSecond").asDouble()) + "/s from "
                            + raw.path("commitWriters").asInt() + " at once" : ""));
        }
        boolean deliveries = has(byTarget, "W1", "W3", "W4");
        if (deliveries) {
            deliveries(md, byTarget, sdmq);
        }
        if (has(byTarget, "W2", "W5")) {
            batchAndScale(deliveries ? md.append('\n') : md, byTarget, sdmq);
        }
        return md.toString();
    }

    private static boolean has(Map<String, Map<String, JsonNode>> byTarget, String... workloads) {
        return byTarget.values().stream().anyMatch(runs -> Arrays.stream(workloads).anyMatch(runs::containsKey));
    }

    /** W1, W3 and W4 of each target, with what every acknowledged message was kept in. */
    private static void deliveries(StringBuilder md, Map<String, Map<String, JsonNode>> byTarget,
            Map<String, JsonNode> sdmq) {
        md.append("| target | keeps messages in | W1 push msgs/s | W1 lateness p50 / p99 / "
                + "p99.9 ms | W3 lateness p50 / p99 / p99.9 ms | W4 last delivery after the due second, ms | lost / "
                + "early / dup, W1; W3; W4 | CPU ms per message, all processes, W1; W3; W4 | sdmq's push ÷ this | "
                + "this W1 p99 ÷ sdmq's | this W3 p99 ÷ sdmq's | this W4 last ÷ sdmq's |\n"
                + "|---|---|---:|---|---|---:|---|---|---:|---:|---:|---:|\n");
        byTarget.forEach((target, runs) -> {
            JsonNode w1 = runs.get("W1");
            JsonNode w3 = runs.get("W3");
            JsonNode w4 = runs.get("W4");
            md.append(String.format(Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s | %s; %s; %s | %s; %s; %s | %s | %s | %s | %s |%n",
                    target, KEPT_IN.getOrDefault(target, "?"),
                    w1 == null ? "–" : count(w1.path("pushRate").asDouble()),
                    w1 == null ? "–" : percentiles(w1), w3 == null ? "–" : percentiles(w3),
                    w4 == null ? "–" : count(w4.path("lastDeliveryAfterDueSecondMs").asDouble()),
                    faults(w1), faults(w3), faults(w4), cpuPerMessage(w1), cpuPerMessage(w3), cpuPerMessage(w4),
                    lead(sdmq.get("W1"), w1, "pushRate", false), lead(sdmq.get("W1"), w1, "latenessP99Ms", true),
                    lead(sdmq.get("W3"), w3, "latenessP99Ms", true),
                    lead(sdmq.get("W4"), w4, "lastDeliveryAfterDueSecondMs", true)));
        });
    }

    /** W2 and W5 of each target: batch pushes, and W1 beside a large backlog, with what the backlog costs Redis. */
    private static void batchAndScale(StringBuilder md, Map<String, Map<String, JsonNode>> byTarget,
            Map<String, JsonNode> sdmq) {
        md.append(String.format(Locale.ROOT, "| target | W2 push msgs/s (1 000 per call) | W2 lateness p50 / p99 / "
                + "p99.9 ms | W5 push msgs/s, ÷ its W1's | W5 lateness p99 ms, ÷ its W1's | Redis bytes per pending "
                + "message | lost / early / dup, W2; W5 | sdmq's W2 push ÷ this | this W5 bytes ÷ sdmq's |%n"
                + "|---|---:|---|---|---|---:|---|---:|---:|%n"));
        byTarget.forEach((target, runs) -> {
            JsonNode w1 = runs.get("W1");
            JsonNode w2 = runs.get("W2");
            JsonNode w5 = runs.get("W5");
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s; %s | %s | %s |%n", target,
                    w2 == null ? "–" : count(w2.path("pushRate").asDouble()),
                    w2 == null ? "–" : percentiles(w2),
                    w5 == null ? "–" : count(w5.path("pushRate").asDouble()) + ", " + ratioOf(w5, w1, "pushRate"),
                    w5 == null ? "–" : String.format(Locale.ROOT, "%.2f, %s", w5.path("latenessP99Ms").asDouble(),
                            ratioOf(w5, w1, "latenessP99Ms")),
                    w5 == null || !w5.path("redisBytesPerPending").isNumber() ? "–"
                            : count(w5.path("redisBytesPerPending").asDouble()),
                    faults(w2), faults(w5), lead(sdmq.get("W2"), w2, "pushRate", false),
                    lead(sdmq.get("W5"), w5, "redisBytesPerPending", true)));
        });
    }

    /** field of a run over the same field of another run of the same target, or a dash. */
    private static String ratioOf(JsonNode run, JsonNode base, String field) {
        if (base == null || base.path(field).asDouble() <= 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2f×", run.path(field).asDouble() / base.path(field).asDouble());
    }

    private static String percentiles(JsonNode r) {
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", r.path("latenessP50Ms").asDouble(),
                r.path("latenessP99Ms").asDouble(), r.path("latenessP999Ms").asDouble());
    }

    private static String faults(JsonNode r) {
        return r == null ? "–" : r.path("lost").asLong() + " / " + r.path("early").asLong() + " / "
                + r.path("duplicates").asLong() + (r.path("valid").asBoolean() ? "" : " (**does not count**)");
    }

    /** CPU of every process the run measured (the bench or peer process, the server, MariaDB, Redis) per message. */
    private static String cpuPerMessage(JsonNode r) {
        if (r == null || r.path("pushed").asDouble() <= 0) {
            return "–";
        }
        double cpu = 0;
        for (String process : List.of("bench", "server", "mariadb", "redis")) {
            cpu += r.path(process + "CpuSeconds").asDouble(0);
        }
        return String.format(Locale.ROOT, "%.2f", 1000 * cpu / r.path("pushed").asDouble());
    }

    /** sdmq's figure over the peer's (higher is better), or the peer's over sdmq's (lower is better). */
    private static String lead(JsonNode sdmq, JsonNode peer, String field, boolean lowerIsBetter) {
        if (sdmq == null || peer == null || sdmq.path(field).asDouble() <= 0 || peer.path(field).asDouble() <= 0) {
            return "–";
        }
        double a = sdmq.path(field).asDouble();
        double b = peer.path(field).asDouble();
        return String.format(Locale.ROOT, "%.2f", lowerIsBetter ? b / a : a / b);
    }
}
