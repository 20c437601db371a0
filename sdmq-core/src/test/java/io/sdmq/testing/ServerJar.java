package io.sdmq.testing;

import io.sdmq.embedded.FreePort;
import io.sdmq.testing.TestServices.TestDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The packaged server jar ({@code sdmq-server/target}) started as its own JVM on a free loopback port, for tests that
 * need a real process: to kill it, or to drive it from outside as the bench does. Its output goes to
 * {@code target/server-process-<port>.log} of the module running the test. Needs the jar: a module's failsafe tests
 * run after {@code package}, and the reactor packages sdmq-server before the modules that come after it.
 */
public final class ServerJar {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ServerJar() {
    }

    /**
     * A started server: its process, port and log file. A hook kills it if the test JVM exits first; {@link #stop}
     * and {@link #kill9} wait until it is gone.
     */
    public static final class Started implements AutoCloseable {
        private final Process process;
        private final int port;
        private final Path log;
        private final Thread killOnExit;

        private Started(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
            this.killOnExit = new Thread(process::destroyForcibly, "kill-server-" + port);
            Runtime.getRuntime().addShutdownHook(killOnExit);
        }

        public Process process() {
            return process;
        }

        public int port() {
            return port;
        }

        public Path log() {
            return log;
        }

        public String url() {
            return ServerJar.url(port);
        }

        /** SIGKILL on Linux: no shutdown hook runs, nothing is flushed; waits until it is gone; its exit code. */
        public int kill9() {
            process.destroyForcibly();
            return waitForExit();
        }

        /** SIGTERM: a graceful Spring shutdown; SIGKILL if it takes longer than 30 s. Answers the exit code. */
        public int stop() {
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

        /** Stops the server if it still runs. */
        @Override
        public void close() {
            if (process.isAlive()) {
                stop();
            } else {
                removeKillOnExit();
            }
        }
    }

    /** A server's properties for this database, Redis and key prefix, with {@code extra} on top (any server's). */
    public static Map<String, Object> properties(TestDatabase db, String redisUrl, String keyPrefix,
                                                 Map<String, ?> extra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("spring.datasource.url", db.jdbcUrl());
        props.put("spring.datasource.username", db.user());
        props.put("spring.datasource.password", db.password());
        props.put("spring.data.redis.url", redisUrl);
        props.put("sdmq.key-prefix", keyPrefix);
        props.putAll(extra);
        return props;
    }

    /**
     * Starts {@code java -jar} on the server jar with each property as {@code --name=value} and waits until
     * {@code /actuator/health} answers 200; kills the process if it does not.
     */
    public static Started start(Map<String, ?> properties) {
        return start(FreePort.find(), properties);
    }

    /**
     * {@link #start(Map)} on a given loopback port: for a test whose client calls the port before the server is up
     * (a client's retries).
     */
    public static Started start(int port, Map<String, ?> properties) {
        Path target = moduleDir().resolve("target");
        Path log = target.resolve("server-process-" + port + ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m", "-jar", jar().toString()));
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(target.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the server exited with " + process.exitValue() + "; see " + log);
                }
                return answersHealthy(port);
            });
        } catch (RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
        return new Started(process, port, log);
    }

    private static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    private static boolean answersHealthy(int port) {
        HttpRequest health = HttpRequest.newBuilder(URI.create(url(port) + "/actuator/health"))
                .timeout(Duration.ofSeconds(5)).build();
        try {
            return HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    }

    /** The one runnable server jar in sdmq-server/target, a sibling of the module running the test. */
    private static Path jar() {
        Path target = moduleDir().resolveSibling("sdmq-server").resolve("target");
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
            throw new UncheckedIOException("could not list " + target + " (run mvn package)", e);
        }
    }
}
