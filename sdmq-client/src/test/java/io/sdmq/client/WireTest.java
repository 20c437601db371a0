package io.sdmq.client;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WireTest {
    private final Wire wire = new Wire();

    @Test
    void a_message_is_sent_with_times_in_milliseconds_and_the_policy_in_lower_case() {
        PushMessage message = PushMessage.builder("order", "{\"id\":1}").delay(Duration.ofSeconds(5)).bizKey("o-1")
                .priority(3).ttr(Duration.ofMinutes(1)).maxAttempts(4)
                .retryDelays(List.of(Duration.ofSeconds(1), Duration.ofSeconds(10)))
                .onDuplicate(OnDuplicate.REPLACE).build();

        assertThat(wire.write(wire.message(message))).isEqualTo("{\"topic\":\"order\",\"body\":\"{\\\"id\\\":1}\","
                + "\"delay\":5000,\"bizKey\":\"o-1\",\"priority\":3,\"ttr\":60000,\"maxAttempts\":4,"
                + "\"retryDelays\":[1000,10000],\"onDuplicate\":\"replace\"}");
    }

    @Test
    void fields_left_null_are_not_sent_so_the_server_applies_its_defaults() {
        PushMessage message = PushMessage.builder("order", "b").deliverAt(Instant.ofEpochMilli(1_795_325_243_108L))
                .build();

        assertThat(wire.write(wire.message(message)))
                .isEqualTo("{\"topic\":\"order\",\"body\":\"b\",\"deliverAt\":1795325243108}");
    }

    @Test
    void a_message_with_neither_delay_nor_deliver_at_is_sent_due_now() {
        assertThat(wire.write(wire.message(PushMessage.of("order", "b"))))
                .isEqualTo("{\"topic\":\"order\",\"body\":\"b\",\"delay\":0}");
    }

    @Test
    void delivered_messages_and_finish_outcomes_are_read_with_their_nulls() {
        JsonNode reply = wire.envelope("{\"success\":true,\"code\":200,\"message\":null,\"data\":["
                + "{\"id\":\"7339155161346838528\",\"topic\":\"t\",\"bizKey\":null,\"body\":\"b\",\"attempts\":2,"
                + "\"dueTime\":1795325243108}]}");
        JsonNode finish = wire.envelope("{\"success\":true,\"code\":200,\"message\":null,\"data\":["
                + "{\"id\":\"1\",\"code\":200,\"message\":null},{\"id\":\"x\",\"code\":400,\"message\":\"id: bad\"}]}");

        assertThat(Wire.delivered(reply.path("data")))
                .containsExactly(new Delivered("7339155161346838528", "t", null, "b", 2, 1_795_325_243_108L));
        assertThat(Wire.finishOutcomes(finish.path("data"))).containsExactly(new FinishOutcome("1", 200, null),
                new FinishOutcome("x", 400, "id: bad"));
    }

    @Test
    void a_reply_that_is_not_json_has_no_envelope() {
        assertThat(wire.envelope("<html>bad gateway</html>")).isNull();
        assertThat(wire.envelope("")).isNull();
    }
}
