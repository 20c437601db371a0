package io.sdmq.embedded;

import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A Redis server from the binary shipped in the embedded-redis jar, bound to loopback. */
public final class EmbeddedRedis implements AutoCloseable {
    private final RedisServer server;
    private final int port;

    private EmbeddedRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /**
     * Starts Redis on {@code port} (0 picks a free one). With {@code persistent}, its append-only file in
     * {@code dir} keeps the data across restarts; otherwise it keeps nothing on disk.
     */
    public static EmbeddedRedis start(Path dir, int port, boolean persistent) {
        int chosen = port == 0 ? FreePort.find() : port;
        try {
            Files.createDirectories(dir);
            RedisServer server = RedisServer.newRedisServer()
                    .bind("127.0.0.1")
                    .port(chosen)
                    .setting("dir \"" + dir.toAbsolutePath() + "\"")
                    .setting(persistent ? "appendonly yes" : "appendonly no")
                    .setting("save \"\"")
                    .setting("hz 100")
                    .build();
            server.start();
            return new EmbeddedRedis(server, chosen);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded Redis in " + dir, e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop embedded Redis", e);
        }
    }
}
