package io.sdmq.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU time of the processes given by --server-pid, --mariadb-pid and --redis-pid (Linux /proc): a workload's
 * whole run, or one phase of it, as W7 reports its requeue alone.
 *
 * @param pids the process ids by name ({@code server}, {@code mariadb}, {@code redis}), those given only
 */
record ProcessCpu(Map<String, Long> pids) {
    /** USER_HZ of Linux on every common platform; /proc/PID/stat counts CPU time in these. */
    private static final int CLOCK_TICKS = 100;

    static ProcessCpu of(Options options) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String process : new String[] {"server", "mariadb", "redis"}) {
            long pid = options.integer(process + "-pid", 0);
            if (pid > 0) {
                pids.put(process, pid);
            }
        }
        return new ProcessCpu(Map.copyOf(pids));
    }

    /** Each process's CPU ticks (user + system) now. */
    Map<String, Long> ticks() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        pids.forEach((process, pid) -> ticks.put(process, ticks(pid)));
        return ticks;
    }

    /**
     * Puts each process's CPU seconds since {@code before} into result, as {@code serverCpuSeconds} or, after a
     * prefix, {@code requeueServerCpuSeconds}.
     */
    void putSince(Map<String, Long> before, String prefix, Map<String, Object> result) {
        ticks().forEach((process, now) -> result.put((prefix.isEmpty() ? process
                        : prefix + Character.toUpperCase(process.charAt(0)) + process.substring(1)) + "CpuSeconds",
                Workloads.round3((now - before.get(process)) / (double) CLOCK_TICKS)));
    }

    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the CPU time of process " + pid, e);
        }
    }
}
