package io.sdmq.core;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicSettingsTest {
    private static final PushRules SERVER = EngineSettings.builder().build().pushRules();

    @Test
    void a_topic_defaults_fill_only_what_the_push_left_out() {
        TopicSettings s = new TopicSettings(5_000L, 3, List.of(100L, 200L), 7, 60_000L, null, null, null, false, null);
        PushRules rules = s.check(SERVER).pushRules(SERVER);

        Message defaulted = rules.toMessage(s.fill(request(null, null, null, null)), 1, 0);
        assertThat(defaulted.ttrMs()).isEqualTo(5_000);
        assertThat(defaulted.maxAttempts()).isEqualTo(3);
        assertThat(defaulted.retryDelays()).containsExactly(100L, 200L);
        assertThat(defaulted.priority()).isEqualTo(7);

        Message own = rules.toMessage(s.fill(request(2_000L, 5, List.of(9L), 1)), 2, 0);
        assertThat(own.ttrMs()).isEqualTo(2_000);
        assertThat(own.maxAttempts()).isEqualTo(5);
        assertThat(own.retryDelays()).containsExactly(9L);
        assertThat(own.priority()).isEqualTo(1);
        assertThat(rules.maxDelayMs()).isEqualTo(60_000);
    }

    @Test
    void no_settings_leave_the_server_rules_as_they_are() {
        assertThat(TopicSettings.NONE.pushRules(SERVER)).isEqualTo(SERVER);
        PushRequest r = request(null, null, null, null);
        assertThat(TopicSettings.NONE.fill(r)).isSameAs(r);
        assertThat(TopicSettings.NONE.limited()).isFalse();
    }

    @Test
    void each_bad_field_is_named_with_its_rule() {
        assertBad(new TopicSettings(999L, null, null, null, null, null, null, null, false, null),
                "ttr: must be in 1000..");
        assertBad(new TopicSettings(null, 101, null, null, null, null, null, null, false, null),
                "maxAttempts: must be in");
        assertBad(new TopicSettings(null, null, Arrays.asList(1L, null), null, null, null, null, null, false, null),
                "retryDelays: each delay");
        assertBad(new TopicSettings(null, null, null, 1000, null, null, null, null, false, null),
                "priority: must be in");
        assertBad(new TopicSettings(null, null, null, null, SERVER.maxDelayMs() + 1, null, null, null, false, null),
                "maxDelay: must be in 0.." + SERVER.maxDelayMs());
        assertBad(new TopicSettings(null, null, null, null, null, 1L, null, null, false, null),
                "retention: must be in");
        assertBad(new TopicSettings(null, null, null, null, null, null, 0, null, false, null), "rateLimit: must be in");
        assertBad(new TopicSettings(null, null, null, null, null, null, null, 0, false, null),
                "maxInFlight: must be in");
        assertBad(TopicSettings.NONE.withDelivery(Map.of("url", "http://x")), "delivery.type: must be a string");
    }

    private static void assertBad(TopicSettings settings, String message) {
        assertThatThrownBy(() -> settings.check(SERVER)).isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith(message);
    }

    private static PushRequest request(Long ttr, Integer maxAttempts, List<Long> retryDelays, Integer priority) {
        return new PushRequest("t", null, "b", 0L, null, priority, ttr, maxAttempts, retryDelays);
    }
}
