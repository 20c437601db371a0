package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OuqiangJobTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long MAX_DELAY_SECONDS = 31_536_000;

    @Test
    void the_documented_push_becomes_a_push_request_keyed_by_the_id_with_seconds_as_ms() {
        OuqiangJob job = job("{\"topic\": \"order\", \"id\": \"15702398321\", \"delay\": 3600, \"ttr\": 120,"
                + " \"body\": \"{\\\"uid\\\": 10829378}\"}");

        assertThat(job.request()).isEqualTo(new PushRequest("order", "15702398321", "{\"uid\": 10829378}",
                3_600_000L, null, null, 120_000L, null, null));
    }

    @Test
    void ids_and_topics_are_trimmed_unknown_fields_ignored_and_null_is_absent_as_in_ouqiang() {
        OuqiangJob job = job("{\"topic\": \" order \", \"id\": \"\\t42 \", \"delay\": 1, \"ttr\": 1, \"body\": null,"
                + " \"priority\": \"ignored\"}");

        assertThat(job).isEqualTo(new OuqiangJob("order", "42", 1, 1, ""));
    }

    @Test
    void the_body_is_kept_as_sent() {
        assertThat(job("{\"topic\": \"t\", \"id\": \"1\", \"delay\": 1, \"ttr\": 1, \"body\": \"  x  \"}").body())
                .isEqualTo("  x  ");
    }

    @Test
    void each_bad_field_is_refused_naming_it_and_its_rule() {
        assertRefused("{\"topic\": \"t\", \"delay\": 1, \"ttr\": 1}", "id: is required (a non-blank string)");
        assertRefused("{\"topic\": \"t\", \"id\": 7, \"delay\": 1, \"ttr\": 1}", "id: must be a string");
        assertRefused("{\"topic\": \"t\", \"id\": \"" + "k".repeat(129) + "\", \"delay\": 1, \"ttr\": 1}",
                "id: must be at most 128 characters");
        assertRefused("{\"topic\": \" \", \"id\": \"1\", \"delay\": 1, \"ttr\": 1}",
                "topic: is required (a non-blank string)");
        assertRefused("{\"topic\": \"t\", \"id\": \"1\", \"ttr\": 1}",
                "delay: is required (whole seconds in 1.." + MAX_DELAY_SECONDS + ")");
        for (String delay : new String[] {"0", "-1", "1.5", "\"60\"", "31536001", "99999999999999999999"}) {
            assertRefused("{\"topic\": \"t\", \"id\": \"1\", \"delay\": " + delay + ", \"ttr\": 1}",
                    "delay: must be whole seconds in 1.." + MAX_DELAY_SECONDS);
        }
        assertRefused("{\"topic\": \"t\", \"id\": \"1\", \"delay\": 1, \"ttr\": 43201}",
                "ttr: must be whole seconds in 1..43200");
        assertRefused("{\"topic\": \"t\", \"id\": \"1\", \"delay\": 1, \"ttr\": 1, \"body\": {}}",
                "body: must be a string");
    }

    @Test
    void a_request_body_that_is_no_json_object_is_refused() {
        for (String body : new String[] {"", " ", "null", "[]", "42", "topic=t", "{\"topic\":"}) {
            assertThatThrownBy(() -> OuqiangBody.parse(body.getBytes(StandardCharsets.UTF_8), JSON)).as(body)
                    .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("request body: must be");
        }
        assertThatThrownBy(() -> OuqiangBody.parse(null, JSON)).isInstanceOf(InvalidRequestException.class);
    }

    private static OuqiangJob job(String json) {
        return OuqiangJob.of(OuqiangBody.parse(json.getBytes(StandardCharsets.UTF_8), JSON), MAX_DELAY_SECONDS);
    }

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(() -> job(json)).as(json).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }
}
