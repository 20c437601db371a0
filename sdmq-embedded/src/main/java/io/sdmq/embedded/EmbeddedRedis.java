package io.sdmq.embedded;

import redis.embedded.core.ExecutableProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server from the binary shipped in the embedded-redis jar, bound to loopback, logging to
 * {@code dir/redis.log}. It runs until {@link #close()}: it registers no shutdown hook of its own, so an application
 * can stop it after its own shutdown, and (where {@code setsid} exists) it runs in its own session, so a Ctrl+C meant
 * for the JVM does not stop it first.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final long START_TIMEOUT_MS = 20_000;

    private final Process process;
    private final int port;

    private EmbeddedRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts Redis on {@code port} (0 picks a free one). With {@code persistent}, its append-only file in
     * {@code dir} keeps the data across restarts; otherwise it keeps nothing on disk. {@code options} go to
     * {@code redis-server} after these, e.g. {@code "--cluster-enabled", "yes"}.
     */
    public static EmbeddedRedis start(Path dir, int port, boolean persistent, String... options) {
        int chosen = port == 0 ? FreePort.find() : port;
        Path home = dir.toAbsolutePath();
        Path log = home.resolve("redis.log");
        try {
            Files.createDirectories(home);
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                command.add(SETSID.toString());
            }
            command.addAll(List.of(ExecutableProvider.newJarResourceProvider().get().getAbsolutePath(),
                    "--bind", "127.0.0.1", "--port", Integer.toString(chosen), "--dir", home.toString(),
                    "--logfile", log.toString(), "--appendonly", persistent ? "yes" : "no", "--save", "",
                    "--hz", "100"));
            command.addAll(List.of(options));
            long logStart = Files.exists(log) ? Files.size(log) : 0;
            Process process = new ProcessBuilder(command).directory(home.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            awaitReady(process, log, logStart);
            return new EmbeddedRedis(process, chosen);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded Redis in " + dir, e);
        }
    }

    /** Waits until this run's part of the log says Redis loaded its data and accepts connections. */
    private static void awaitReady(Process process, Path log, long logStart) throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (Files.exists(log) && Files.size(log) > logStart) {
                String text = Files.readString(log);
                if (text.substring((int) Math.min(logStart, text.length())).contains("Ready to accept connections")) {
                    return;
                }
            }
            if (!process.isAlive()) {
                throw new IOException("Redis exited with " + process.exitValue() + "; see " + log);
            }
            sleep(20);
        }
        process.destroyForcibly();
        throw new IOException("Redis did not get ready in " + START_TIMEOUT_MS + " ms; see " + log);
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Stops Redis gracefully (it syncs its append-only file); calling it again does nothing. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting Redis", e);
        }
    }
}
