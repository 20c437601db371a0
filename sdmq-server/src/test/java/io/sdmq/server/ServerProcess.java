package io.sdmq.server;

import io.sdmq.testing.TestServices.TestDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * The packaged server jar run as its own JVM on a free loopback port, so a test can kill it with SIGKILL. Its output
 * goes to {@code target/server-process-<port>.log}. Needs the jar in {@code target/}: the failsafe tests run after
 * {@code package}, so it is there.
 */
final class ServerProcess implements ServerUnderTest, AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpApi http;
    private final Thread killOnExit;

    private ServerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.http = new HttpApi("http://127.0.0.1:" + port);
        this.killOnExit = new Thread(process::destroyForcibly, "kill-server-" + port);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts a server on this database, Redis and key prefix, with {@code extra} properties on top. */
    static ServerProcess start(TestDatabase db, String redisUrl, String keyPrefix, Map<String, ?> extra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("spring.datasource.url", db.jdbcUrl());
        props.put("spring.datasource.username", db.user());
        props.put("spring.datasource.password", db.password());
        props.put("spring.data.redis.url", redisUrl);
        props.put("sdmq.key-prefix", keyPrefix);
        props.putAll(extra);
        return start(props);
    }

    /** Starts {@code java -jar} on the server jar with each property as {@code --name=value}; waits until healthy. */
    static ServerProcess start(Map<String, ?> properties) {
        int port = freePort();
        Path target = moduleDir().resolve("target");
        Path log = target.resolve("server-process-" + port + ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m", "-jar",
                serverJar(target).toString()));
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        try {
            Process process = new ProcessBuilder(command).directory(target.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            ServerProcess server = new ServerProcess(process, port, log);
            server.awaitHealthy();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    private void awaitHealthy() {
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the server exited with " + process.exitValue() + "; see " + log);
                }
                return answersHealthy();
            });
        } catch (RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private boolean answersHealthy() {
        try {
            return http.get("/actuator/health").status() == 200;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public HttpApi http() {
        return http;
    }

    /** SIGKILL on Linux: no shutdown hook runs, nothing is flushed; waits until the process is gone; its exit code. */
    int kill9() {
        process.destroyForcibly();
        return waitForExit();
    }

    /** SIGTERM: a graceful Spring shutdown; SIGKILL if it takes longer than 30 s. Answers the exit code. */
    int stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return waitForExit();
    }

    private int waitForExit() {
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("server process " + process.pid() + " did not exit after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for server process " + process.pid(), e);
        }
        removeKillOnExit();
        return process.exitValue();
    }

    private void removeKillOnExit() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook kills a process that is already gone
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        } else {
            removeKillOnExit();
        }
    }

    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    }

    private static Path serverJar(Path target) {
        try (Stream<Path> files = Files.list(target)) {
            List<Path> jars = files.filter(f -> {
                String name = f.getFileName().toString();
                return name.startsWith("sdmq-server-") && name.endsWith(".jar") && !name.endsWith("-tests.jar")
                        && !name.endsWith("-sources.jar") && !name.endsWith("-javadoc.jar");
            }).toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("expected one server jar in " + target + " (run mvn package), found "
                        + jars);
            }
            return jars.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + target, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
