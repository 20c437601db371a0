package io.sdmq.server;

import io.sdmq.testing.ServerJar;
import io.sdmq.testing.TestServices.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.LinkedHashMap;
import java.util.Map;

/** A whole sdmq server on a random loopback port, started in this JVM, with a small HTTP client for it. */
final class RunningServer implements ServerUnderTest, AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ConfigurableApplicationContext context;
    private final HttpApi http;

    private RunningServer(ConfigurableApplicationContext context) {
        this.context = context;
        this.http = new HttpApi("http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port"));
    }

    static RunningServer start(TestDatabase db, String redisUrl, String keyPrefix, Map<String, Object> extra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", "0");
        props.put("server.address", "127.0.0.1");
        props.putAll(ServerJar.properties(db, redisUrl, keyPrefix, extra));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SdmqServerApplication.class)
                .run(props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                        .toArray(String[]::new));
        return new RunningServer(context);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    <T> T bean(String name, Class<T> type) {
        return context.getBean(name, type);
    }

    @Override
    public HttpApi http() {
        return http;
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
