package io.sdmq.server;

import io.sdmq.testing.TestServices.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A whole sdmq server on a random loopback port, started in this JVM, with a small HTTP client for it. */
final class RunningServer implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ConfigurableApplicationContext context;
    private final String base;

    private RunningServer(ConfigurableApplicationContext context) {
        this.context = context;
        this.base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    static RunningServer start(TestDatabase db, String redisUrl, String keyPrefix, Map<String, Object> extra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", "0");
        props.put("server.address", "127.0.0.1");
        props.put("spring.datasource.url", db.jdbcUrl());
        props.put("spring.datasource.username", db.user());
        props.put("spring.datasource.password", db.password());
        props.put("spring.data.redis.url", redisUrl);
        props.put("sdmq.key-prefix", keyPrefix);
        props.putAll(extra);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SdmqServerApplication.class)
                .properties(props).run();
        return new RunningServer(context);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    Reply post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Reply postForm(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(90)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException("request failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        context.close();
    }

    /** An HTTP reply; {@link #json()} parses the body. */
    record Reply(int status, String body) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        JsonNode data() {
            return json().get("data");
        }
    }
}
