package io.sdmq.common;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PushRulesTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final PushRules RULES = new PushRules(86_400_000L, 16, 30_000, 8, List.of(0L, 10_000L));

    @Test
    void a_minimal_push_gets_the_defaults() {
        Message m = RULES.toMessage(push("order", null, "body", 5_000L, null), 7, NOW);

        assertThat(m).isEqualTo(new Message(7, "order", null, "body", 0, NOW, NOW + 5_000, 30_000, 8, null, 0));
        assertThat(m.score()).isEqualTo(NOW + 5_000);
    }

    @Test
    void deliver_at_sets_the_due_time_and_priority_offsets_the_score() {
        PushRequest request = new PushRequest("order", "k-1", "b", null, NOW + 100, 3, 2_000L, 2, List.of(5L));
        Message m = RULES.toMessage(request, 7, NOW);

        assertThat(m.dueTime()).isEqualTo(NOW + 100);
        assertThat(m.delayMs()).isEqualTo(100);
        assertThat(m.score()).isEqualTo(NOW + 103);
        assertThat(m.retryDelays()).containsExactly(5L);
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of(push(null, null, "b", 0L, null), "topic:"),
                Arguments.of(push("", null, "b", 0L, null), "topic:"),
                Arguments.of(push("a b", null, "b", 0L, null), "topic:"),
                Arguments.of(push("x".repeat(65), null, "b", 0L, null), "topic:"),
                Arguments.of(push("order", "", "b", 0L, null), "bizKey:"),
                Arguments.of(push("order", " k", "b", 0L, null), "bizKey:"),
                Arguments.of(push("order", "k".repeat(129), "b", 0L, null), "bizKey:"),
                Arguments.of(push("order", null, null, 0L, null), "body:"),
                Arguments.of(push("order", null, "x".repeat(17), 0L, null), "body:"),
                Arguments.of(push("order", null, "é".repeat(9), 0L, null), "body:"),
                Arguments.of(push("order", null, "b", null, null), "delay:"),
                Arguments.of(push("order", null, "b", 1L, NOW), "delay:"),
                Arguments.of(push("order", null, "b", -1L, null), "delay:"),
                Arguments.of(push("order", null, "b", 86_400_001L, null), "delay:"),
                Arguments.of(push("order", null, "b", null, NOW + 86_400_001L), "deliverAt:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, -1, null, null, null), "priority:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, 1000, null, null, null), "priority:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, null, 999L, null, null), "ttr:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, null, 43_200_001L, null, null), "ttr:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, null, null, 0, null), "maxAttempts:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, null, null, null, List.of()),
                        "retryDelays:"),
                Arguments.of(new PushRequest("order", null, "b", 0L, null, null, null, null, List.of(-1L)),
                        "retryDelays:"));
    }

    @ParameterizedTest
    @MethodSource("badRequests")
    void a_bad_field_is_named_with_its_rule(PushRequest request, String field) {
        assertThatThrownBy(() -> RULES.toMessage(request, 7, NOW))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith(field)
                .satisfies(e -> assertThat(e.getMessage()).startsWith(field));
    }

    @Test
    void an_oversized_body_is_payload_too_large() {
        assertThatThrownBy(() -> RULES.toMessage(push("order", null, "x".repeat(17), 0L, null), 7, NOW))
                .isInstanceOf(PayloadTooLargeException.class);
    }

    @Test
    void every_illegal_transition_is_refused() {
        assertThat(MessageStatus.FINISHED.canMoveTo(MessageStatus.DELAY)).isFalse();
        assertThat(MessageStatus.DELETED.canMoveTo(MessageStatus.READY)).isFalse();
        assertThat(MessageStatus.WAIT_PUT.canMoveTo(MessageStatus.RESERVED)).isFalse();
        assertThat(MessageStatus.RESERVED.canMoveTo(MessageStatus.FINISHED)).isTrue();
        assertThatThrownBy(() -> Transition.of(1, MessageStatus.FINISHED, MessageStatus.READY, NOW, "b"))
                .isInstanceOf(IllegalStateException.class);
    }

    private static PushRequest push(String topic, String bizKey, String body, Long delay, Long deliverAt) {
        return new PushRequest(topic, bizKey, body, delay, deliverAt, null, null, null, null);
    }
}
