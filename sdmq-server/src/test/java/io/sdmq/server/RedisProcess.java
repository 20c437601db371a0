package io.sdmq.server;

import io.sdmq.embedded.EmbeddedRedis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Redis owned by one test, on a loopback port fixed at the first start, that can be stopped and started again on
 * that port (so servers configured with its URL reconnect to it). Not persistent: a restarted Redis is empty, as
 * after losing its data.
 */
final class RedisProcess implements AutoCloseable {
    private final Path dir;
    private final int port;
    private EmbeddedRedis redis;

    private RedisProcess(Path dir, EmbeddedRedis redis) {
        this.dir = dir;
        this.port = redis.port();
        this.redis = redis;
    }

    static RedisProcess start() {
        try {
            Path dir = Files.createTempDirectory("sdmq-test-redis");
            return new RedisProcess(dir, EmbeddedRedis.start(dir, 0, false));
        } catch (IOException e) {
            throw new UncheckedIOException("no temp directory for Redis", e);
        }
    }

    int port() {
        return port;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    synchronized boolean running() {
        return redis != null;
    }

    /** Stops Redis; its data is gone and its port refuses connections. Does nothing when stopped. */
    synchronized void stop() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    /** Starts an empty Redis on the same port; waits until it accepts connections. Does nothing when running. */
    synchronized void startAgain() {
        if (redis == null) {
            redis = EmbeddedRedis.start(dir, port, false);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
