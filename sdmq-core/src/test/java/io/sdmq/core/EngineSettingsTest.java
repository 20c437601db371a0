package io.sdmq.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings are built by name from defaults defined once; a setting out of range is refused naming it. */
class EngineSettingsTest {

    @Test
    void the_defaults_are_those_the_server_documents() {
        EngineSettings settings = EngineSettings.builder().build();

        assertThat(settings.pushRules().defaultTtrMs()).isEqualTo(30_000);
        assertThat(settings.pushRules().maxDelayMs()).isEqualTo(Duration.ofDays(365).toMillis());
        assertThat(settings.pushRules().maxBodyBytes()).isEqualTo(65_536);
        assertThat(settings.pushRules().defaultMaxAttempts()).isEqualTo(8);
        assertThat(settings.pushRules().defaultRetryDelays()).containsExactly(0L, 10_000L, 60_000L, 300_000L,
                1_800_000L, 3_600_000L, 7_200_000L, 21_600_000L);
        assertThat(settings.moveBatch()).isEqualTo(1_000);
        assertThat(settings.coldAfter()).isEqualTo(Duration.ofHours(1));
        assertThat(settings.linger()).isEqualTo(Duration.ofMillis(60));
        assertThat(settings.maxWait()).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.recovery()).isEqualTo(new RecoverySettings(true, Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofDays(7), 500, 5_000));
    }

    @Test
    void a_setting_changed_by_name_leaves_the_others_at_their_defaults() {
        EngineSettings changed = EngineSettings.builder().moveBatch(7).retryDelays(List.of(Duration.ofSeconds(3)))
                .recovery(r -> r.retention(Duration.ZERO)).build();
        EngineSettings defaults = EngineSettings.builder().build();

        assertThat(changed.moveBatch()).isEqualTo(7);
        assertThat(changed.pushRules().defaultRetryDelays()).containsExactly(3_000L);
        assertThat(changed.recovery().retention()).isZero();
        assertThat(changed.writeBatch()).isEqualTo(defaults.writeBatch());
        assertThat(changed.recovery().grace()).isEqualTo(defaults.recovery().grace());
    }

    @Test
    void a_setting_out_of_range_is_refused_naming_it() {
        assertThatThrownBy(() -> EngineSettings.builder().moveBatch(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("moveBatch must be at least 1, not 0");
        assertThatThrownBy(() -> EngineSettings.builder().linger(Duration.ofMillis(-1)).build())
                .hasMessageStartingWith("linger must be zero or a positive duration");
        assertThatThrownBy(() -> EngineSettings.builder().recovery(r -> r.purgeBatch(0)).build())
                .hasMessage("purgeBatch must be at least 1, not 0");
    }
}
