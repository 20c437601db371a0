package io.sdmq.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a JFR recording's CPU went, optionally within a time window. Per thread from jdk.ThreadCPULoad (every
 * thread, JIT compilers included), in cores. Then from jdk.ExecutionSample (threads running Java code): by top frame,
 * by owner (the top-most frame outside java.*, jdk.* and sun.*, as a three-part package such as org.apache.ibatis, so
 * JDK time is charged to the library that called it), and io.sdmq methods inclusive of their callees.
 */
final class Profile {
    private final Map<String, Long> topFrames = new HashMap<>();
    private final Map<String, Long> owners = new HashMap<>();
    private final Map<String, Long> sdmqInclusive = new HashMap<>();
    private final Map<String, double[]> threadLoad = new HashMap<>();
    private double jvmLoad;
    private double machineLoad;
    private int loadEvents;
    private int processors = Runtime.getRuntime().availableProcessors();
    private long samples;
    private long collections;
    private double gcPauseMs;
    private long compilations;
    private double compileMs;

    private Profile() {
    }

    /** Counts the events that started in [from, to] (epoch ms), or every event when to is 0. */
    static String markdown(Path recording, int top, long from, long to) throws IOException {
        Profile profile = new Profile();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                String type = event.getEventType().getName();
                long at = event.getStartTime().toEpochMilli();
                if (to > 0 && (at < from || at > to) && !type.equals("jdk.CPUInformation")) {
                    continue;
                }
                profile.tally(type, event);
            }
        }
        return profile.markdown(top);
    }

    /** Adds one event of the window to what it counts. */
    private void tally(String type, RecordedEvent event) {
        switch (type) {
            case "jdk.CPUInformation" -> processors = event.getInt("hwThreads");
            case "jdk.CPULoad" -> {
                jvmLoad += event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                machineLoad += event.getFloat("machineTotal");
                loadEvents++;
            }
            case "jdk.ThreadCPULoad" -> threadLoad(event);
            case "jdk.GarbageCollection" -> {
                collections++;
                gcPauseMs += event.getDuration("sumOfPauses").toNanos() / 1e6;
            }
            case "jdk.Compilation" -> {
                compilations++;
                compileMs += event.getDuration().toNanos() / 1e6;
            }
            case "jdk.ExecutionSample" -> {
                if (event.getStackTrace() != null && !event.getStackTrace().getFrames().isEmpty()) {
                    samples++;
                    sample(event.getStackTrace().getFrames());
                }
            }
            default -> {
            }
        }
    }

    private void threadLoad(RecordedEvent event) {
        RecordedThread thread = event.getThread("eventThread");
        if (thread != null) {
            double[] sumAndCount = threadLoad.computeIfAbsent(
                    threadName(thread) + "#" + thread.getOSThreadId(), k -> new double[2]);
            sumAndCount[0] += event.getFloat("user") + event.getFloat("system");
            sumAndCount[1]++;
        }
    }

    private String markdown(int top) {
        Map<String, Double> threadCores = new HashMap<>();
        for (Map.Entry<String, double[]> e : threadLoad.entrySet()) {
            String name = e.getKey().substring(0, e.getKey().lastIndexOf('#')).replaceAll("\\d+", "N");
            threadCores.merge(name, processors * e.getValue()[0] / e.getValue()[1], Double::sum);
        }
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "The server JVM used %.2f cores on average (jdk.CPULoad, user + system) "
                        + "while the whole %d-thread machine was %.0f%% busy. GC: %d collections, %.0f ms paused. "
                        + "JIT: %d compilations, %.0f ms compiling.%n%n",
                processors * jvmLoad / Math.max(loadEvents, 1), processors,
                100 * machineLoad / Math.max(loadEvents, 1), collections, gcPauseMs, compilations, compileMs));
        md.append("| thread (digits as N), from jdk.ThreadCPULoad | cores |\n|---|---:|\n");
        threadCores.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> md.append(String.format(Locale.ROOT, "| `%s` | %.3f |%n", e.getKey(), e.getValue())));
        md.append(String.format(Locale.ROOT, "%n%d samples of threads running Java code (jdk.ExecutionSample).%n%n",
                samples));
        table(md, "owner: package of the top-most non-JDK frame", owners, samples, top);
        table(md, "top frame (self time)", topFrames, samples, top);
        table(md, "io.sdmq method, inclusive of what it calls", sdmqInclusive, samples, top);
        return md.toString();
    }

    private void sample(List<RecordedFrame> frames) {
        add(topFrames, name(frames.get(0).getMethod()));
        add(owners, owner(frames));
        Set<String> seen = new HashSet<>();
        for (RecordedFrame frame : frames) {
            String method = name(frame.getMethod());
            if (method.startsWith("io.sdmq.") && !method.contains("$$Lambda") && seen.add(method)) {
                add(sdmqInclusive, method);
            }
        }
    }

    private static String threadName(RecordedThread thread) {
        return thread.getJavaName() != null ? thread.getJavaName() : String.valueOf(thread.getOSName());
    }

    private static String owner(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod() == null ? "" : frame.getMethod().getType().getName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                String[] parts = type.split("\\.");
                return parts.length > 3 ? parts[0] + "." + parts[1] + "." + parts[2] : type;
            }
        }
        return "JDK only";
    }

    private static String name(RecordedMethod method) {
        return method == null ? "?" : method.getType().getName() + "." + method.getName();
    }

    private static void add(Map<String, Long> counts, String key) {
        counts.merge(key, 1L, Long::sum);
    }

    private static void table(StringBuilder md, String heading, Map<String, Long> counts, long total, int top) {
        md.append("| ").append(heading).append(" | samples | share |\n|---|---:|---:|\n");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> md.append(String.format(Locale.ROOT, "| `%s` | %d | %.1f%% |%n",
                        e.getKey(), e.getValue(), 100.0 * e.getValue() / Math.max(total, 1))));
        md.append('\n');
    }
}
