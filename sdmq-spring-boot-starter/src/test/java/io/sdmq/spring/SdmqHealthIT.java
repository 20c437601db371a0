package io.sdmq.spring;

import io.sdmq.spring.app.ListenerTestApp;
import io.sdmq.testing.ServerJar;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The application's {@code sdmq} health follows the server's: UP while it runs, DOWN once it is stopped. */
class SdmqHealthIT {

    @Test
    void the_health_indicator_reports_up_while_the_server_runs_and_down_once_it_is_stopped() {
        ServerJar.Started server = TestServer.start();
        try (ConfigurableApplicationContext app = ListenerTestApp.run(URI.create(server.url()),
                TestServer.freshTopic(), Map.of("sdmq.client.max-retries", "0"))) {
            SdmqHealthIndicator health = app.getBean(SdmqHealthIndicator.class);

            assertThat(health.health().getStatus()).isEqualTo(Status.UP);

            server.stop();

            Health down = health.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("server", server.url() + "/actuator/health")
                    .containsKey("error");
        } finally {
            server.close();
        }
    }
}
