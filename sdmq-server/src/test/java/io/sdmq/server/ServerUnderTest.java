package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;

/** A server a test talks to over HTTP, in this JVM or as a process of its own; the calls go through {@link #http()}. */
interface ServerUnderTest {
    /** The HTTP client for this server, e.g. for {@link Deliveries#consume(HttpApi, String)}. */
    HttpApi http();

    default Reply post(String path, String json) {
        return http().post(path, json);
    }

    default Reply postForm(String path) {
        return http().postForm(path);
    }

    default Reply get(String path) {
        return http().get(path);
    }
}
