package io.sdmq.server;

import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices.TestDatabase;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged server jar run as its own JVM ({@link ServerJar}), so a test can kill it with SIGKILL. */
final class ServerProcess implements ServerUnderTest, AutoCloseable {
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
        return start(ServerJar.properties(db, redisUrl, keyPrefix, extra));
    }

    /** Starts {@code java -jar} on the server jar with each property as {@code --name=value}; waits until healthy. */
    static ServerProcess start(Map<String, ?> properties) {
        ServerJar.Started started = ServerJar.start(properties);
        return new ServerProcess(started.process(), started.port(), started.log());
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
}
