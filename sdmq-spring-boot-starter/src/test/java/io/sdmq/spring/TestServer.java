package io.sdmq.spring;

import io.sdmq.embedded.FreePort;
import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The server jar these tests drive, open (no tokens), on a fresh database and Redis key prefix: one shared by the
 * test classes of the JVM (each test takes topics of its own), or one of a test's own. A hook of {@link ServerJar}
 * stops it when the JVM exits. Reads a message's row with the admin route {@code /job/{id}}.
 */
final class TestServer {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static ServerJar.Started shared;

    private TestServer() {
    }

    static synchronized URI shared() {
        if (shared == null) {
            shared = start();
        }
        return URI.create(shared.url());
    }

    static ServerJar.Started start() {
        return ServerJar.start(FreePort.find(), ServerJar.properties(TestServices.freshDatabase(),
                TestServices.redisUrl(), TestServices.freshKeyPrefix(), Map.of("sdmq.recovery.auto-restore", "false")));
    }

    static String freshTopic() {
        return "starter-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** The message's row as MySQL holds it: status, attempts, history. */
    static JsonNode job(URI server, String id) {
        HttpRequest request = HttpRequest.newBuilder(server.resolve("/job/" + id)).build();
        try {
            String body = HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
            return JSON.readTree(body).path("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String status(URI server, String id) {
        return job(server, id).path("status").asString();
    }

    /** The message's transitions as {@code FROM>TO}, oldest first. */
    static List<String> steps(URI server, String id) {
        return job(server, id).path("history").valueStream()
                .map(s -> s.path("from").asString() + ">" + s.path("to").asString()).toList();
    }
}
