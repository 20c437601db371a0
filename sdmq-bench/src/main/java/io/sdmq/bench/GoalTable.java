package io.sdmq.bench;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.sdmq.bench.Report.count;

/**
 * The report's table of each workload next to the goal: what was pushed and delivered, the lateness, the
 * push (or restore) rate as a ratio of the raw limits measured in the same run, the server's CPU, and which goals
 * the run met, W5 as a ratio of W1.
 */
final class GoalTable {
    private final double zadd;
    private final double insert;
    /** 0 in the results of runs made before the floor was measured. */
    private final double floor;
    /** 0 in the results of runs made before the concurrent commits were measured. */
    private final double writersCommits;
    private final int writers;
    private final JsonNode w1;

    /** raw: the run's raw limits, or null; w1: its W1, or null. */
    GoalTable(JsonNode raw, JsonNode w1) {
        this.zadd = raw == null ? 0 : raw.path("zaddPerSecond").asDouble();
        this.insert = raw == null ? 0 : raw.path("insertRowsPerSecond").asDouble();
        this.floor = raw == null ? 0 : raw.path("layoutFloorBytesPerMessage").asDouble();
        this.writersCommits = raw == null ? 0 : raw.path("writersCommitsPerSecond").asDouble();
        this.writers = raw == null ? 0 : raw.path("commitWriters").asInt();
        this.w1 = w1;
    }

    /** A row for each result but the raw limits, by label. */
    void append(StringBuilder md, Map<String, JsonNode> results) {
        md.append("| workload | pushed | push msgs/s | ÷ raw INSERT | ÷ raw ZADD | delivered | lost | early | dup "
                + "| lateness p50 / p99 / p99.9 / max ms | server CPU | goal | met |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|\n");
        for (Map.Entry<String, JsonNode> entry : results.entrySet()) {
            JsonNode r = entry.getValue();
            String workload = r.path("workload").asString();
            String label = entry.getKey().equals(workload) || !r.has("producers") ? entry.getKey()
                    : entry.getKey() + " (" + r.path("producers").asInt() + " producers)";
            if (workload.equals("W6")) {
                md.append(restoreRow(r));
            } else if (!workload.equals("raw")) {
                md.append(deliveryRow(label, workload, r));
            }
        }
    }

    private String restoreRow(JsonNode r) {
        double rate = r.path("restoreRate").asDouble();
        return String.format(Locale.ROOT, "| W6 restore | %s pending | restore %s | %s | %s | %s restored "
                        + "| %d | – | – | – | %s | ≥ 100 000 msgs/s restored | %s |%n",
                count(r.path("pendingBefore").asDouble()), count(rate), ratio(rate, insert), ratio(rate, zadd),
                count(r.path("restored").asDouble()), r.path("lost").asLong(),
                cpu(r, r.path("restored").asDouble()),
                verdict(r, List.of(check("restore", rate >= 100_000, rate / 100_000))));
    }

    private String deliveryRow(String label, String workload, JsonNode r) {
        double push = r.path("pushRate").asDouble();
        return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d | %d | %d | %s | %s | %s | %s |%n",
                label, count(r.path("pushed").asDouble()), count(push), ratio(push, insert), ratio(push, zadd),
                count(r.path("delivered").asDouble()), r.path("lost").asLong(), r.path("early").asLong(),
                r.path("duplicates").asLong(), lateness(r),
                cpu(r, r.path("pushed").asDouble() + r.path("preloaded").asDouble(0)), goal(workload),
                met(workload, r, r.path("producers").asInt() == writers ? writersCommits : 0));
    }

    private static String goal(String workload) {
        return switch (workload) {
            case "W1" -> "push ≥ 12 000/s, p50 ≤ 5 ms, p99 ≤ 50 ms";
            case "W2" -> "push ≥ 50 000/s";
            case "W3" -> "p99 ≤ 4 ms, p99.9 ≤ 20 ms (at the target rate)";
            case "W4" -> "all delivered within 5 s of the due second";
            case "W5" -> "push and p99 within 1.5× of W1";
            default -> "";
        };
    }

    /** rawCommits: the raw commits from as many connections as r had producers, or 0 (not measured). */
    private String met(String workload, JsonNode r, double rawCommits) {
        if (workload.equals("W5") && w1 == null) {
            return "no W1 in this run to compare with";
        }
        double push = r.path("pushRate").asDouble();
        List<String> checks = switch (workload) {
            case "W1" -> burstChecks(r, rawCommits);
            case "W2" -> List.of(check("push", push >= 50_000, push / 50_000));
            case "W3" -> steadyChecks(r);
            case "W4" -> herdChecks(r);
            case "W5" -> scaleChecks(r);
            default -> List.of();
        };
        return verdict(r, checks);
    }

    private static List<String> burstChecks(JsonNode r, double rawCommits) {
        double push = r.path("pushRate").asDouble();
        double p50 = r.path("latenessP50Ms").asDouble();
        double p99 = r.path("latenessP99Ms").asDouble();
        List<String> checks = new ArrayList<>();
        checks.add(check("push", push >= 12_000, push / 12_000));
        if (rawCommits > 0) {
            checks.add(String.format(Locale.ROOT, "push %.2f× the raw commits of as many connections",
                    push / rawCommits));
        }
        checks.add(check("p50", p50 <= 5, p50 / 5));
        checks.add(check("p99", p99 <= 50, p99 / 50));
        return checks;
    }

    private static List<String> steadyChecks(JsonNode r) {
        double push = r.path("pushRate").asDouble();
        double p99 = r.path("latenessP99Ms").asDouble();
        double p999 = r.path("latenessP999Ms").asDouble();
        double target = r.path("targetRate").asDouble();
        return List.of(check("rate", push >= 0.98 * target, push / target), check("p99", p99 <= 4, p99 / 4),
                check("p99.9", p999 <= 20, p999 / 20));
    }

    private static List<String> herdChecks(JsonNode r) {
        JsonNode last = r.path("lastDeliveryAfterDueSecondMs");
        String delivered = !last.isNumber() ? "nothing delivered: no"
                : "last " + count(last.asDouble()) + " ms after the second: "
                        + (last.asDouble() <= 5_000 && r.path("lost").asLong() == 0 ? "yes" : "no");
        return List.of(delivered,
                "pushed before it: " + (r.path("pushedBeforeDueSecond").asBoolean() ? "yes" : "no"));
    }

    /** W5 as a ratio of W1, and the Redis bytes per pending message beside the layout floor. */
    private List<String> scaleChecks(JsonNode r) {
        double pushRatio = r.path("pushRate").asDouble() / w1.path("pushRate").asDouble();
        double p99Ratio = r.path("latenessP99Ms").asDouble() / w1.path("latenessP99Ms").asDouble();
        double bytes = r.path("redisBytesPerPending").asDouble();
        return List.of(
                String.format(Locale.ROOT, "push %.2f× W1: %s", pushRatio, pushRatio >= 1 / 1.5 ? "yes" : "no"),
                String.format(Locale.ROOT, "p99 %.2f× W1: %s", p99Ratio, p99Ratio <= 1.5 ? "yes" : "no"),
                count(r.path("preloaded").asDouble()) + " preloaded, " + count(bytes)
                        + " Redis bytes per pending message, ≤ 400: " + (bytes <= 400 ? "yes" : "no")
                        + (floor > 0 ? String.format(Locale.ROOT, " (%.2f× the layout floor of a message kept whole, "
                        + "%s)", bytes / floor, count(floor)) : ""));
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
}
