package io.sdmq.server.delivery;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookAnswersTest {
    private static final Instant NOW = Instant.parse("2026-11-27T20:00:00Z");
    private static final WebhookAnswers ANSWERS = new WebhookAnswers(false, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void a_2xx_delivers() {
        assertThat(ANSWERS.of(answer(200, "", Map.of()))).isEqualTo(Sent.delivered());
        assertThat(ANSWERS.of(answer(204, "", Map.of()))).isEqualTo(Sent.delivered());
    }

    @Test
    void a_5xx_408_or_429_is_retried_with_the_status_and_the_start_of_the_body_on_one_line() {
        assertThat(ANSWERS.of(answer(500, "  boom\r\n\tat line 3 ", Map.of())))
                .isEqualTo(Sent.retry("webhook 500 boom at line 3"));
        assertThat(ANSWERS.of(answer(408, "", Map.of()))).isEqualTo(Sent.retry("webhook 408"));
        assertThat(ANSWERS.of(answer(429, "", Map.of()))).isEqualTo(Sent.retry("webhook 429"));
        assertThat(ANSWERS.of(answer(502, "x".repeat(300), Map.of())).note()).hasSize("webhook 502 ".length() + 100);
    }

    @Test
    void a_429_or_503_with_retry_after_waits_it_at_most_an_hour() {
        assertThat(ANSWERS.of(answer(429, "", Map.of("Retry-After", "7")))).isEqualTo(Sent.retryAfter("webhook 429",
                7_000));
        assertThat(ANSWERS.of(answer(503, "", Map.of("Retry-After", "Fri, 27 Nov 2026 20:00:30 GMT"))))
                .isEqualTo(Sent.retryAfter("webhook 503", 30_000));
        assertThat(ANSWERS.of(answer(503, "", Map.of("Retry-After", "Fri, 27 Nov 2026 19:00:00 GMT"))).delayMs())
                .isZero();
        assertThat(ANSWERS.of(answer(429, "", Map.of("Retry-After", "86400"))).delayMs()).isEqualTo(3_600_000);
        assertThat(ANSWERS.of(answer(429, "", Map.of("Retry-After", "99999999999999999999"))).delayMs())
                .isEqualTo(3_600_000);
        assertThat(ANSWERS.of(answer(429, "", Map.of("Retry-After", "soon")))).isEqualTo(Sent.retry("webhook 429"));
        assertThat(ANSWERS.of(answer(500, "", Map.of("Retry-After", "5")))).isEqualTo(Sent.retry("webhook 500"));
    }

    @Test
    void a_3xx_is_dead_since_redirects_are_not_followed() {
        assertThat(ANSWERS.of(answer(301, "moved", Map.of("Location", "http://elsewhere/"))))
                .isEqualTo(Sent.dead("webhook 301 redirects are not followed"));
    }

    @Test
    void another_4xx_is_dead_unless_the_topic_retries_4xx() {
        assertThat(ANSWERS.of(answer(404, "no such hook", Map.of()))).isEqualTo(Sent.dead("webhook 404 no such hook"));
        assertThat(ANSWERS.of(answer(410, "", Map.of()))).isEqualTo(Sent.dead("webhook 410"));
        WebhookAnswers retrying = new WebhookAnswers(true, Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(retrying.of(answer(404, "no such hook", Map.of())))
                .isEqualTo(Sent.retry("webhook 404 no such hook"));
    }

    private static WebhookAnswers.Answer answer(int status, String body, Map<String, String> headers) {
        return new WebhookAnswers.Answer(status, headers.get("Retry-After"), body);
    }
}
