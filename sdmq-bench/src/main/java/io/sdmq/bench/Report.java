package io.sdmq.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown of one results file. Its tables ({@link #markdown}): the raw limits, then each workload next to the
 * issue's goal ({@link GoalTable}), then the call latencies and CPU behind the figures. Or sdmq beside the peers
 * ({@link #comparison}, see {@link Comparison}).
 */
final class Report {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Report() {
    }

    /** The tables of a results file; a label run more than once counts with its last line. */
    static String markdown(List<String> lines) {
        Map<String, JsonNode> last = new LinkedHashMap<>();
        for (JsonNode result : results(lines)) {
            last.put(result.path("label").asString(result.path("workload").asString()), result);
        }
        StringBuilder md = new StringBuilder();
        JsonNode raw = last.get("raw");
        if (raw != null) {
            rawLimits(md, raw);
        }
        new GoalTable(raw, last.get("W1")).append(md, last);
        calls(md, last);
        return md.toString();
    }

    /** sdmq beside the peers of one bench/peers.sh run. */
    static String comparison(List<String> lines) {
        return Comparison.markdown(lines);
    }

    /** The results of the non-blank lines, in their order. */
    static List<JsonNode> results(List<String> lines) {
        List<JsonNode> results = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                results.add(JSON.readTree(line));
            }
        }
        return results;
    }

    /** The raw limits, with the concurrent commits and the layout floor when the run measured them. */
    private static void rawLimits(StringBuilder md, JsonNode raw) {
        // 0 in the results of runs made before the concurrent commits, or the floor, were measured
        double writersCommits = raw.path("writersCommitsPerSecond").asDouble();
        int writers = raw.path("commitWriters").asInt();
        double floor = raw.path("layoutFloorBytesPerMessage").asDouble();
        md.append("| raw limit (same machine, same run) | per second | how |\n|---|---:|---|\n");
        md.append(String.format(Locale.ROOT, "| Redis pipelined ZADD | %s | %s commands, 1 000 per flush, one "
                        + "connection, Redis %s |%n", count(raw.path("zaddPerSecond").asDouble()),
                count(raw.path("zaddCount").asDouble()), raw.path("redisVersion").asString()));
        md.append(String.format(Locale.ROOT, "| MariaDB batched INSERT rows | %s | %s rows of the sdmq_message "
                        + "shape, 1 000 per statement, a commit each, one connection, %s, "
                        + "innodb_flush_log_at_trx_commit=%d, buffer pool %d MiB |%n",
                count(raw.path("insertRowsPerSecond").asDouble()), count(raw.path("insertRows").asDouble()),
                raw.path("mariadbVersion").asString(), raw.path("innodbFlushLogAtTrxCommit").asInt(),
                raw.path("innodbBufferPoolMiB").asLong()));
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
                    count(floor), count(raw.path("layoutFloorEntries").asDouble())));
        }
        md.append('\n');
    }

    /** The push and /finish calls, the server log's lateness and the CPU of each run that pushed. */
    private static void calls(StringBuilder md, Map<String, JsonNode> last) {
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

    /** A count with a space between thousands, as the tables print it. */
    static String count(double value) {
        return String.format(Locale.ROOT, "%,d", Math.round(value)).replace(',', ' ');
    }
}
