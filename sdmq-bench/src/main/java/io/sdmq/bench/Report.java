package io.sdmq.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown tables of one results file: the raw limits, then each workload next to the goal, with its
 * push (or restore) rate as a ratio of the raw limits measured in the same run and W5 as a ratio of W1, then the
 * call latencies and CPU behind the figures.
 */
final class Report {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Report() {
    }

    static String markdown(List<String> lines) {
        Map<String, JsonNode> last = new LinkedHashMap<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                JsonNode result = JSON.readTree(line);
                last.put(result.path("label").asString(result.path("workload").asString()), result);
            }
        }
        StringBuilder md = new StringBuilder();
        JsonNode raw = last.get("raw");
        double zadd = raw == null ? 0 : raw.path("zaddPerSecond").asDouble();
        double insert = raw == null ? 0 : raw.path("insertRowsPerSecond").asDouble();
        // 0 in the results of runs made before the floor was measured
        double floor = raw == null ? 0 : raw.path("layoutFloorBytesPerMessage").asDouble();
        // 0 in the results of runs made before the concurrent commits were measured
        double writersCommits = raw == null ? 0 : raw.path("writersCommitsPerSecond").asDouble();
        int writers = raw == null ? 0 : raw.path("commitWriters").asInt();
        if (raw != null) {
            md.append("| raw limit (same machine, same run) | per second | how |\n|---|---:|---|\n");
            md.append(String.format(Locale.ROOT, "| Redis pipelined ZADD | %s | %s commands, 1 000 per flush, one "
                            + "connection, Redis %s |%n", count(zadd), count(raw.path("zaddCount").asDouble()),
                    raw.path("redisVersion").asString()));
            md.append(String.format(Locale.ROOT, "| MariaDB batched INSERT rows | %s | %s rows of the sdmq_message "
                            + "shape, 1 000 per statement, a commit each, one connection, %s, "
                            + "innodb_flush_log_at_trx_commit=%d, buffer pool %d MiB |%n", count(insert),
                    count(raw.path("insertRows").asDouble()), raw.path("mariadbVersion").asString(),
                    raw.path("innodbFlushLogAtTrxCommit").asInt(), raw.path("innodbBufferPoolMiB").asLong()));
            md.append(String.format(Locale.ROOT, "| MariaDB durable commits (one row each) | %s | %s transactions, "
                    + "one connection: the fsync bound on any one writer |%n",
                    count(raw.path("commitsPerSecond").asDouble()), count(raw.path("commits").asDouble())));
            if (writersCommits > 0) {
                md.append(String.format(Locale.ROOT, "| MariaDB durable commits from %d connections at once (one row "
                        + "each) | %s | %s transactions on each: W1's push rate with %d producers if a push cost "
                        + "nothing but its commit, no HTTP, Redis or delivery work |%n",
                        writers, count(writersCommits), count(raw.path("commits").asDouble()), writers));
            }
            if (floor > 0) {
                md.append(String.format(Locale.ROOT, "| Redis layout floor of a message kept whole, bytes per message "
                        + "(not per second) | %s | %s messages over 16 keys: a hash entry holding only the 200-byte "
                        + "body and a zset entry, both keyed by a 19-digit id; MEMORY USAGE, the measure of W5 |%n",
                        count(floor),
                        count(raw.path("layoutFloorEntries").asDouble())));
            }
            md.append('\n');
        }
        md.append("| workload | pushed | push msgs/s | ÷ raw INSERT | ÷ raw ZADD | delivered | lost | early | dup "
                + "| lateness p50 / p99 / p99.9 / max ms | server CPU | goal | met |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|\n");
        JsonNode w1 = last.get("W1");
        for (Map.Entry<String, JsonNode> entry : last.entrySet()) {
            JsonNode r = entry.getValue();
            String workload = r.path("workload").asString();
            String label = entry.getKey().equals(workload) || !r.has("producers") ? entry.getKey()
                    : entry.getKey() + " (" + r.path("producers").asInt() + " producers)";
            if (workload.equals("raw")) {
                continue;
            }
            if (workload.equals("W6")) {
                double rate = r.path("restoreRate").asDouble();
                md.append(String.format(Locale.ROOT, "| W6 restore | %s pending | restore %s | %s | %s | %s restored "
                                + "| %d | – | – | – | %s | ≥ 100 000 msgs/s restored | %s |%n",
                        count(r.path("pendingBefore").asDouble()), count(rate), ratio(rate, insert), ratio(rate, zadd),
                        count(r.path("restored").asDouble()), r.path("lost").asLong(),
                        cpu(r, r.path("restored").asDouble()),
                        verdict(r, List.of(check("restore", rate >= 100_000, rate / 100_000)))));
                continue;
            }
            double push = r.path("pushRate").asDouble();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d | %d | %d | %s | %s | %s | %s |%n",
                    label, count(r.path("pushed").asDouble()), count(push), ratio(push, insert), ratio(push, zadd),
                    count(r.path("delivered").asDouble()), r.path("lost").asLong(), r.path("early").asLong(),
                    r.path("duplicates").asLong(), lateness(r),
                    cpu(r, r.path("pushed").asDouble() + r.path("preloaded").asDouble(0)), goal(workload),
                    met(workload, r, w1, floor, r.path("producers").asInt() == writers ? writersCommits : 0)));
        }
        md.append("\n| workload | push call p50 / p99 ms | ids per /finish | /finish call avg / max ms "
                + "| server log lateness p50 / p99 ms: moved to READY; popped | server cores | bench CPU s "
                + "| duration s |\n|---|---|---:|---|---|---:|---:|---:|\n");
        for (Map.Entry<String, JsonNode> entry : last.entrySet()) {
            JsonNode r = entry.getValue();
            if (r.has("pushCallP50Ms")) {
                md.append(String.format(Locale.ROOT,
                        "| %s | %.2f / %.2f | %.1f | %.1f / %.1f | %s | %.2f | %.1f | %.1f |%n",
                        entry.getKey(), r.path("pushCallP50Ms").asDouble(), r.path("pushCallP99Ms").asDouble(),
                        r.path("idsPerFinish").asDouble(), r.path("finishCallAvgMs").asDouble(),
                        r.path("finishCallMaxMs").asDouble(), serverLog(r), r.path("serverCores").asDouble(0),
                        r.path("benchCpuSeconds").asDouble(), r.path("durationSeconds").asDouble()));
            }
        }
        return md.toString();
    }

    /** Where each target keeps an acknowledged message. */
    private static final Map<String, String> KEPT_IN = Map.of(
            "sdmq", "MySQL (committed before a push answers) and Redis",
            "redisson", "Redis only",
            "db-scheduler", "MySQL",
            "bullmq", "Redis only");

    /**
     * sdmq beside the peers of one bench/peers.sh run: per target (its label) its W1, W3 and W4, then (when the run
     * has them) its W2 and W5, and the ratios that say by how much sdmq leads (above 1) or trails (below 1).
     */
    static String comparison(List<String> lines) {
        Map<String, Map<String, JsonNode>> byTarget = new LinkedHashMap<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                JsonNode result = JSON.readTree(line);
                byTarget.computeIfAbsent(result.path("label").asString(), label -> new LinkedHashMap<>())
                        .put(result.path("workload").asString(), result);
            }
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

    private static String goal(String workload) {
        switch (workload) {
            case "W1":
                return "push ≥ 12 000/s, p50 ≤ 5 ms, p99 ≤ 50 ms";
            case "W2":
                return "push ≥ 50 000/s";
            case "W3":
                return "p99 ≤ 4 ms, p99.9 ≤ 20 ms (at the target rate)";
            case "W4":
                return "all delivered within 5 s of the due second";
            case "W5":
                return "push and p99 within 1.5× of W1";
            default:
                return "";
        }
    }

    /** writersCommits: the raw commits from as many connections as r had producers, or 0 (not measured). */
    private static String met(String workload, JsonNode r, JsonNode w1, double floor, double writersCommits) {
        double push = r.path("pushRate").asDouble();
        double p50 = r.path("latenessP50Ms").asDouble();
        double p99 = r.path("latenessP99Ms").asDouble();
        double p999 = r.path("latenessP999Ms").asDouble();
        List<String> checks = new ArrayList<>();
        switch (workload) {
            case "W1":
                checks.add(check("push", push >= 12_000, push / 12_000));
                if (writersCommits > 0) {
                    checks.add(String.format(Locale.ROOT, "push %.2f× the raw commits of as many connections",
                            push / writersCommits));
                }
                checks.add(check("p50", p50 <= 5, p50 / 5));
                checks.add(check("p99", p99 <= 50, p99 / 50));
                break;
            case "W2":
                checks.add(check("push", push >= 50_000, push / 50_000));
                break;
            case "W3": {
                double target = r.path("targetRate").asDouble();
                checks.add(check("rate", push >= 0.98 * target, push / target));
                checks.add(check("p99", p99 <= 4, p99 / 4));
                checks.add(check("p99.9", p999 <= 20, p999 / 20));
                break;
            }
            case "W4": {
                JsonNode last = r.path("lastDeliveryAfterDueSecondMs");
                if (last.isNumber()) {
                    checks.add("last " + count(last.asDouble()) + " ms after the second: "
                            + (last.asDouble() <= 5_000 && r.path("lost").asLong() == 0 ? "yes" : "no"));
                } else {
                    checks.add("nothing delivered: no");
                }
                checks.add("pushed before it: " + (r.path("pushedBeforeDueSecond").asBoolean() ? "yes" : "no"));
                break;
            }
            case "W5": {
                if (w1 == null) {
                    return "no W1 in this run to compare with";
                }
                double pushRatio = push / w1.path("pushRate").asDouble();
                double p99Ratio = p99 / w1.path("latenessP99Ms").asDouble();
                checks.add(String.format(Locale.ROOT, "push %.2f× W1: %s", pushRatio,
                        pushRatio >= 1 / 1.5 ? "yes" : "no"));
                checks.add(String.format(Locale.ROOT, "p99 %.2f× W1: %s", p99Ratio, p99Ratio <= 1.5 ? "yes" : "no"));
                double bytes = r.path("redisBytesPerPending").asDouble();
                checks.add(count(r.path("preloaded").asDouble()) + " preloaded, " + count(bytes)
                        + " Redis bytes per pending message, ≤ 400: " + (bytes <= 400 ? "yes" : "no")
                        + (floor > 0 ? String.format(Locale.ROOT, " (%.2f× the layout floor of a message kept whole, "
                        + "%s)", bytes / floor, count(floor)) : ""));
                break;
            }
            default:
                break;
        }
        return verdict(r, checks);
    }

    /** The checks, or why the figures do not count (loss, early delivery, push errors, wrong due time). */
    private static String verdict(JsonNode r, List<String> checks) {
        String joined = String.join("; ", checks);
        return r.path("valid").asBoolean() ? joined : "**does not count** (" + problems(r) + "); " + joined;
    }

    private static String problems(JsonNode r) {
        List<String> problems = new ArrayList<>();
        for (String field : List.of("lost", "early", "pushErrors", "dueMismatch", "unknown", "pendingAfterFlush")) {
            if (r.path(field).asLong() > 0) {
                problems.add(field + " " + r.path(field).asLong());
            }
        }
        return String.join(", ", problems);
    }

    private static String check(String name, boolean ok, double ofGoal) {
        return String.format(Locale.ROOT, "%s %s (%.2f× goal)", name, ok ? "yes" : "no", ofGoal);
    }

    /** The lateness the server's status log records, when the run read it (--server-db). */
    private static String serverLog(JsonNode r) {
        if (!r.has("serverMovedP50Ms")) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.0f / %.0f; %.0f / %.0f", r.path("serverMovedP50Ms").asDouble(),
                r.path("serverMovedP99Ms").asDouble(), r.path("serverPoppedP50Ms").asDouble(),
                r.path("serverPoppedP99Ms").asDouble());
    }

    private static String lateness(JsonNode r) {
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f / %.2f", r.path("latenessP50Ms").asDouble(),
                r.path("latenessP99Ms").asDouble(), r.path("latenessP999Ms").asDouble(),
                r.path("latenessMaxMs").asDouble());
    }

    /** The server's CPU over the workload: average cores busy, and ms of CPU per message (preloaded ones too). */
    private static String cpu(JsonNode r, double messages) {
        if (!r.has("serverCpuSeconds") || messages <= 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2f cores, %.2f ms/msg", r.path("serverCores").asDouble(),
                1000 * r.path("serverCpuSeconds").asDouble() / messages);
    }

    private static String ratio(double value, double limit) {
        return limit <= 0 ? "–" : String.format(Locale.ROOT, "%.3f", value / limit);
    }

    static String count(double value) {
        return String.format(Locale.ROOT, "%,d", Math.round(value)).replace(',', ' ');
    }
}
