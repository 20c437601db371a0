package io.sdmq.spring.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small application that uses the starter as an application would: its listeners in {@link RecordingListener},
 * the client, template and containers from the auto-configuration, a Micrometer registry of its own.
 */
@SpringBootApplication
public class ListenerTestApp {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    /**
     * The application against {@code server}, its listener on {@code topic}; {@code more} are further properties.
     * Polls are short so that a stop does not wait long for the poll under way.
     */
    public static ConfigurableApplicationContext run(URI server, String topic, Map<String, String> more) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("sdmq.client.base-url", server.toString());
        properties.put("sdmq.client.listener.poll-timeout", "1s");
        properties.put("test.topic", topic);
        properties.putAll(more);
        return new SpringApplicationBuilder(ListenerTestApp.class).web(WebApplicationType.NONE)
                .properties(properties).run();
    }
}
