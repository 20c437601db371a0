package io.sdmq.server.security;

import io.sdmq.common.ForbiddenTopicException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicScopeTest {
    private final TopicScope orders = TopicScope.of(List.of("orders.*", "audit", "*-eu"));

    @Test
    void a_star_stands_for_any_run_of_topic_characters_and_the_rest_matches_literally() {
        assertThat(orders.allows("orders.created")).isTrue();
        assertThat(orders.allows("orders.")).isTrue();
        assertThat(orders.allows("orders.a.b")).isTrue();
        assertThat(orders.allows("audit")).isTrue();
        assertThat(orders.allows("billing-eu")).isTrue();
        assertThat(orders.allows("orders")).isFalse();
        assertThat(orders.allows("ordersXcreated")).as("a dot is a dot, not any character").isFalse();
        assertThat(orders.allows("audit2")).isFalse();
        assertThat(orders.allows("payments")).isFalse();
    }

    @Test
    void no_patterns_is_every_topic() {
        assertThat(TopicScope.of(null)).isSameAs(TopicScope.EVERY_TOPIC);
        assertThat(TopicScope.of(List.of()).everyTopic()).isTrue();
        assertThat(TopicScope.EVERY_TOPIC.allows("anything")).isTrue();
        assertThatCode(() -> TopicScope.EVERY_TOPIC.requireEveryTopic("a restore")).doesNotThrowAnyException();
        assertThat(TopicScope.of(List.of("*")).allows("anything")).isTrue();
    }

    @Test
    void a_topic_beyond_the_scope_is_refused_naming_it_and_the_patterns() {
        assertThatThrownBy(() -> orders.check("payments")).isInstanceOf(ForbiddenTopicException.class)
                .hasMessage("topic payments: this token may act only on topics matching orders.*, audit, *-eu");
        assertThatThrownBy(() -> orders.checkAll(List.of("orders.a", "payments", "audit")))
                .isInstanceOf(ForbiddenTopicException.class).hasMessageStartingWith("topic payments:");
        assertThatThrownBy(() -> orders.requireEveryTopic("a restore")).isInstanceOf(ForbiddenTopicException.class)
                .hasMessageStartingWith("a restore acts on every topic");
    }

    @Test
    void a_malformed_topic_is_left_to_the_routes_own_check() {
        assertThatCode(() -> orders.check(null)).doesNotThrowAnyException();
        assertThatCode(() -> orders.check("bad topic")).doesNotThrowAnyException();
        assertThatCode(() -> orders.check("x".repeat(65))).doesNotThrowAnyException();
    }
}
