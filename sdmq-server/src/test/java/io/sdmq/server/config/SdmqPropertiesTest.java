package io.sdmq.server.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.sdmq.core.EngineSettings;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
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

    @Test
    void named_tokens_bind_beside_the_legacy_lists() {
        SdmqProperties p = bind(Map.of("sdmq.auth.producer-token", "p-0123456789abcdef",
                "sdmq.auth.tokens.orders-bot.secret", "o-0123456789abcdef",
                "sdmq.auth.tokens.orders-bot.role", "Producer",
                "sdmq.auth.tokens.orders-bot.topics", "orders.*, audit",
                "sdmq.auth.tokens.dash.secret", "d-0123456789abcdef",
                "sdmq.auth.tokens.dash.role", "viewer"));

        assertThat(p.auth().producerToken()).containsExactly("p-0123456789abcdef");
        assertThat(p.auth().tokens()).containsOnlyKeys("orders-bot", "dash");
        assertThat(p.auth().tokens().get("orders-bot"))
                .isEqualTo(new SdmqProperties.NamedToken("o-0123456789abcdef", "producer", List.of("orders.*", "audit")));
        assertThat(p.auth().tokens().get("dash").topics()).isNull();
    }

    @Test
    void a_bad_named_token_stops_the_start_naming_the_property_and_the_rule() {
        Map<String, String> good = Map.of("sdmq.auth.tokens.bot.secret", "b-0123456789abcdef",
                "sdmq.auth.tokens.bot.role", "consumer");
        assertRefused(with(good, "sdmq.auth.tokens.bot.role", "operator"),
                "sdmq.auth.tokens.bot.role: must be one of producer, consumer, admin, viewer, not \"operator\"");
        assertRefused(Map.of("sdmq.auth.tokens.bot.secret", "b-0123456789abcdef"),
                "sdmq.auth.tokens.bot.role: must be one of producer, consumer, admin, viewer");
        assertRefused(with(good, "sdmq.auth.tokens.bot.secret", " "),
                "sdmq.auth.tokens.bot.secret: is required");
        assertRefused(Map.of("sdmq.auth.tokens.bot.role", "consumer"), "sdmq.auth.tokens.bot.secret: is required");
        assertRefused(with(good, "sdmq.auth.tokens.bot.topics", "orders.*,orders/eu"),
                "sdmq.auth.tokens.bot.topics: \"orders/eu\" must be 1..64 of [A-Za-z0-9._-] and *");
        assertRefused(with(good, "sdmq.auth.tokens.bot.topics", "orders?"),
                "sdmq.auth.tokens.bot.topics: \"orders?\" must be");
        assertRefused(with(good, "sdmq.auth.tokens.bot.topics", ""),
                "sdmq.auth.tokens.bot.topics: must list at least one topic pattern");
        assertRefused(with(good, "sdmq.auth.consumer-token", "b-0123456789abcdef"),
                "sdmq.auth.tokens.bot.secret: is also the secret of sdmq.auth.consumer-token");
        assertRefused(Map.of("sdmq.auth.tokens.bot.secret", "same-0123456789abcdef", "sdmq.auth.tokens.bot.role",
                "consumer", "sdmq.auth.tokens.cat.secret", "same-0123456789abcdef", "sdmq.auth.tokens.cat.role",
                "producer"), "sdmq.auth.tokens.cat.secret: is also the secret of sdmq.auth.tokens.bot");
        assertRefused(Map.of("sdmq.auth.tokens[a b].secret", "b-0123456789abcdef", "sdmq.auth.tokens[a b].role",
                "admin"), "sdmq.auth.tokens.a b: a token name must match [A-Za-z0-9_-]{1,64}");
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> all = new HashMap<>(base);
        all.put(key, value);
        return all;
    }

    private static void assertRefused(Map<String, String> properties, String message) {
        assertThatThrownBy(() -> bind(properties)).isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining(message);
    }

    private static SdmqProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("sdmq", SdmqProperties.class);
    }
}
