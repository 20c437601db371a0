package io.sdmq.client;

import io.sdmq.embedded.FreePort;
import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server jar these tests drive, on a fresh database and Redis key prefix: one shared by the test classes of the
 * JVM (each test takes topics of its own), or one started on a given port. A hook of {@link ServerJar} stops it
 * when the JVM exits.
 */
final class TestServer {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ServerJar.Started shared;

    private TestServer() {
    }

    static synchronized URI shared() {
        if (shared == null) {
            shared = start(FreePort.find());
        }
        return URI.create(shared.url());
    }

    static ServerJar.Started start(int port) {
        return ServerJar.start(port, ServerJar.properties(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of("sdmq.recovery.auto-restore", "false")));
    }

    static String freshTopic() {
        return "client-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** The server's count of answered requests to {@code uri}, every status: its Prometheus timer's count. */
    static long requestsServed(URI server, String uri) throws IOException, InterruptedException {
        HttpRequest scrape = HttpRequest.newBuilder(server.resolve("/actuator/prometheus")).build();
        String text = HTTP.send(scrape, HttpResponse.BodyHandlers.ofString()).body();
        return text.lines().filter(line -> line.startsWith("http_server_requests_seconds_count{"))
                .filter(line -> line.contains("uri=\"" + uri + "\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** Gets and finishes {@code count} messages of {@code topic}; fails if they do not all come within a minute. */
    static List<Delivered> receive(SdmqClient client, String topic, int count) {
        List<Delivered> received = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (received.size() < count && System.nanoTime() < deadline) {
            List<Delivered> got = client.get(topic, 100, Duration.ofSeconds(1));
            if (!got.isEmpty()) {
                List<FinishOutcome> finished = client.finish(got.stream().map(Delivered::id).toList());
                assertThat(finished).allMatch(FinishOutcome::finished);
                received.addAll(got);
            }
        }
        assertThat(received).as("messages received from " + topic).hasSize(count);
        return received;
    }
}
