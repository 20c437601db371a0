package io.sdmq.spring;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code sdmq} in the application's health: UP when the server's own {@code /actuator/health} answers UP (it is open
 * to everyone, no token needed), DOWN with the server's answer or the connection failure otherwise. Each check is one
 * request of at most {@link #TIMEOUT}, so that a server that hangs does not hold the application's health.
 */
public class SdmqHealthIndicator implements HealthIndicator {
    static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final URI health;

    public SdmqHealthIndicator(URI baseUrl) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        this.health = URI.create(baseUrl.toString().replaceAll("/+$", "") + "/actuator/health");
    }

    @Override
    public Health health() {
        HttpRequest request = HttpRequest.newBuilder(health).timeout(TIMEOUT).GET().build();
        try {
            HttpResponse<String> reply = http.send(request, HttpResponse.BodyHandlers.ofString());
            Health.Builder health = reply.statusCode() == 200 && "UP".equals(statusIn(reply.body()))
                    ? Health.up() : Health.down().withDetail("status", reply.statusCode());
            return health.withDetail("server", this.health.toString()).build();
        } catch (IOException e) {
            return Health.down().withDetail("server", health.toString()).withDetail("error", e.toString()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.unknown().withDetail("server", health.toString()).build();
        }
    }

    /** The {@code status} of the server's health reply; null when the reply is not that JSON. */
    private static String statusIn(String reply) {
        try {
            JsonNode status = JSON.readTree(reply).path("status");
            return status.isString() ? status.asString() : null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
