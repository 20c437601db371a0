package io.sdmq.client;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PushMessageTest {

    @Test
    void a_message_needs_a_topic_and_a_body() {
        assertThatThrownBy(() -> PushMessage.of(null, "b")).isInstanceOf(NullPointerException.class)
                .hasMessage("topic");
        assertThatThrownBy(() -> PushMessage.builder("t", null).build()).isInstanceOf(NullPointerException.class)
                .hasMessage("body");
    }

    @Test
    void a_built_message_does_not_change_when_its_retry_delay_list_does() {
        List<Duration> delays = new ArrayList<>(List.of(Duration.ofSeconds(1)));
        PushMessage message = PushMessage.builder("t", "b").retryDelays(delays).build();

        delays.add(Duration.ofSeconds(2));

        assertThat(message.retryDelays()).containsExactly(Duration.ofSeconds(1));
        assertThatThrownBy(() -> message.retryDelays().add(Duration.ZERO))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void a_message_without_a_policy_ignores_duplicates() {
        assertThat(PushMessage.of("t", "b").onDuplicate()).isEqualTo(OnDuplicate.IGNORE);
        assertThat(PushMessage.builder("t", "b").onDuplicate(OnDuplicate.REPLACE).build().onDuplicate())
                .isEqualTo(OnDuplicate.REPLACE);
    }
}
