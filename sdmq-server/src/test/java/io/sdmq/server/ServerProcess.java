package io.sdmq.server;

import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices.TestDatabase;

import java.nio.file.Path;
import java.util.Map;

/** The packaged server jar run as its own JVM ({@link ServerJar}), so a test can kill it with SIGKILL. */
final class ServerProcess implements ServerUnderTest, AutoCloseable {
    private final ServerJar.Started server;
    private final HttpApi http;

    private ServerProcess(ServerJar.Started server) {
        this.server = server;
        this.http = new HttpApi(server.url());
    }

    /** Starts a server on this database, Redis and key prefix, with {@code extra} properties on top. */
    static ServerProcess start(TestDatabase db, String redisUrl, String keyPrefix, Map<String, ?> extra) {
        return start(ServerJar.properties(db, redisUrl, keyPrefix, extra));
    }

    /** Starts {@code java -jar} on the server jar with each property as {@code --name=value}; waits until healthy. */
    static ServerProcess start(Map<String, ?> properties) {
        return new ServerProcess(ServerJar.start(properties));
    }

    int port() {
        return server.port();
    }

    long pid() {
        return server.process().pid();
    }

    Path log() {
        return server.log();
    }

    boolean isAlive() {
        return server.process().isAlive();
    }

    @Override
    public HttpApi http() {
        return http;
    }

    /** SIGKILL: see {@link ServerJar.Started#kill9}. */
    int kill9() {
        return server.kill9();
    }

    /** SIGTERM, without waiting: the server begins its graceful shutdown. */
    void sigterm() {
        server.process().destroy();
    }

    /** SIGTERM, then SIGKILL after 30 s: see {@link ServerJar.Started#stop}. */
    int stop() {
        return server.stop();
    }

    @Override
    public void close() {
        server.close();
    }
}
