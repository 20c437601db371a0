package io.sdmq.server.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.sdmq.core.EngineSettings;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** sdmq.* binds with its defaults, and a setting out of range stops the start naming the property and the rule. */
class SdmqPropertiesTest {

    @Test
    void unset_properties_keep_the_engine_defaults() {
        SdmqProperties p = bind(Map.of());

        assertThat(p.engineSettings("host-1")).isEqualTo(EngineSettings.builder().host("host-1").build());
        assertThat(p.limits().pushPerSecond()).isZero();
        assertThat(p.buckets()).isEqualTo(16);
    }

    @Test
    void set_properties_are_bound_onto_the_engine_defaults_by_name() {
        SdmqProperties p = bind(Map.of("sdmq.journal.linger", "5ms", "sdmq.retry.delays", "1s,2s",
                "sdmq.recovery.retention", "0", "sdmq.max-body-size", "1KB", "sdmq.consumer.max-count", "7"));

        EngineSettings settings = p.engineSettings("host-1");

        assertThat(settings.linger()).isEqualTo(Duration.ofMillis(5));
        assertThat(settings.pushRules().defaultRetryDelays()).containsExactly(1_000L, 2_000L);
        assertThat(settings.pushRules().maxBodyBytes()).isEqualTo(1_024);
        assertThat(settings.maxPopCount()).isEqualTo(7);
        assertThat(settings.recovery().retention()).isZero();
        assertThat(settings.writeBatch()).isEqualTo(EngineSettings.builder().build().writeBatch());
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
