package io.sdmq.spring;

import io.sdmq.spring.app.ListenerTestApp;
import io.sdmq.testing.ServerJar;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code sdmq} component of the application's health endpoint (what {@code /actuator/health/sdmq} serves) follows
 * the server's: UP while it runs, DOWN once it is stopped, and the application's health with it.
 */
class SdmqHealthIT {

    @Test
    void the_health_indicator_reports_up_while_the_server_runs_and_down_once_it_is_stopped() {
        ServerJar.Started server = TestServer.start();
        try (ConfigurableApplicationContext app = ListenerTestApp.run(URI.create(server.url()),
                TestServer.freshTopic(), Map.of("sdmq.client.max-retries", "0",
                        "management.endpoint.health.show-details", "always"))) {
            HealthEndpoint health = app.getBean(HealthEndpoint.class);

            assertThat(health.healthForPath("sdmq").getStatus()).isEqualTo(Status.UP);

            server.stop();

            IndicatedHealthDescriptor down = (IndicatedHealthDescriptor) health.healthForPath("sdmq");
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("server", server.url() + "/actuator/health")
                    .containsKey("error");
            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        } finally {
            server.close();
        }
    }
}
