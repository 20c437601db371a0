package io.sdmq.server.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** sdmq.* binds with its defaults, and a setting out of range stops the start naming the property and the rule. */
class SdmqPropertiesTest {

    @Test
    void defaults_bind() {
        SdmqProperties p = bind(Map.of());

        assertThat(p.consumer().blockingWait()).isEqualTo(Duration.ofMillis(50));
        assertThat(p.journal().linger()).isEqualTo(Duration.ofMillis(60));
        assertThat(p.limits().pushPerSecond()).isZero();
    }

    @Test
    void a_blocking_wait_of_zero_is_allowed_and_a_negative_one_is_refused() {
        assertThat(bind(Map.of("sdmq.consumer.blocking-wait", "0")).consumer().blockingWait()).isZero();

        assertThatThrownBy(() -> bind(Map.of("sdmq.consumer.blocking-wait", "-1ms")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("sdmq.consumer.blocking-wait: must be 0 (off) or more");
    }

    @Test
    void a_negative_push_rate_limit_is_refused() {
        assertThatThrownBy(() -> bind(Map.of("sdmq.limits.push-per-second", "-1")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("sdmq.limits.push-per-second: must be 0 (off) or more");
    }

    private static SdmqProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("sdmq", SdmqProperties.class);
    }
}
