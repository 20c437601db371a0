package io.sdmq.client;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the client decides without a server: its options, the exception of each answer, which failures it retries. */
class SdmqClientTest {
    /** Nothing listens there; no test here sends a request. */
    private static final URI NOWHERE = URI.create("http://127.0.0.1:9/");

    @Test
    void bad_options_are_refused_naming_the_option() {
        assertRefused(b -> b.maxBatch(0), "maxBatch: must be 1..1000, was 0");
        assertRefused(b -> b.maxBatch(1_001), "maxBatch: must be 1..1000, was 1001");
        assertRefused(b -> b.linger(Duration.ofMillis(-1)), "linger: must not be negative");
        assertRefused(b -> b.bufferSize(0), "bufferSize: must be at least 1");
        assertRefused(b -> b.maxInFlightBatches(0), "maxInFlightBatches: must be at least 1");
        assertRefused(b -> b.maxRetries(-1), "maxRetries: must be at least 0");
        assertRefused(b -> b.requestTimeout(Duration.ZERO), "requestTimeout: must be positive");
        assertThatThrownBy(() -> SdmqClient.builder(URI.create("ftp://127.0.0.1/")).build())
                .hasMessageContaining("baseUri: must be an http or https URI");
    }

    @Test
    void every_call_after_close_fails_clearly() {
        SdmqClient client = SdmqClient.builder(NOWHERE).build();
        client.close();

        assertThat(client.pushAsync(PushMessage.of("t", "b"))).failsWithin(Duration.ZERO)
                .withThrowableOfType(Exception.class).havingCause().isInstanceOf(SdmqClientException.Closed.class)
                .withMessage("the client is closed");
        assertThatThrownBy(() -> client.push(PushMessage.of("t", "b"))).isInstanceOf(SdmqClientException.Closed.class);
        assertThatThrownBy(() -> client.pushAll(List.of(PushMessage.of("t", "b"))))
                .isInstanceOf(SdmqClientException.Closed.class);
        assertThatThrownBy(() -> client.get("t", 1, Duration.ofSeconds(1)))
                .isInstanceOf(SdmqClientException.Closed.class);
        assertThatThrownBy(() -> client.finish("1")).isInstanceOf(SdmqClientException.Closed.class);
        assertThatThrownBy(() -> client.delete("1")).isInstanceOf(SdmqClientException.Closed.class);
        assertThat(client.stats().requests()).isZero();
        client.close();
    }

    @Test
    void each_answer_becomes_its_exception_with_the_status_and_the_servers_message() {
        SdmqClientException invalid = SdmqClientException.answered("POST /push", 400, "topic: must match x");

        assertThat(invalid).isInstanceOf(SdmqClientException.InvalidRequest.class)
                .hasMessage("POST /push answered 400: topic: must match x");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.serverMessage()).isEqualTo("topic: must match x");
        assertThat(SdmqClientException.answered("c", 413, "m")).isInstanceOf(SdmqClientException.InvalidRequest.class);
        assertThat(SdmqClientException.answered("c", 404, "m")).isInstanceOf(SdmqClientException.NotFound.class);
        assertThat(SdmqClientException.answered("c", 409, "m")).isInstanceOf(SdmqClientException.Conflict.class);
        assertThat(SdmqClientException.answered("c", 429, "m"))
                .isInstanceOf(SdmqClientException.TooManyRequests.class);
        assertThat(SdmqClientException.answered("c", 503, "m")).isInstanceOf(SdmqClientException.Unavailable.class);
        assertThat(SdmqClientException.answered("c", 401, "m")).isInstanceOf(SdmqClientException.Refused.class);
    }

    @Test
    void only_a_503_or_no_answer_is_worth_a_retry() {
        assertThat(HttpCalls.worthRetrying(SdmqClientException.answered("c", 503, "m"))).isTrue();
        assertThat(HttpCalls.worthRetrying(new SdmqClientException.ConnectionFailed("refused", null))).isTrue();
        for (int status : new int[] {400, 401, 403, 404, 409, 413, 429, 500}) {
            assertThat(HttpCalls.worthRetrying(SdmqClientException.answered("c", status, "m"))).as("%d", status)
                    .isFalse();
        }
    }

    private static void assertRefused(UnaryOperator<SdmqClientBuilder> option, String message) {
        assertThatThrownBy(() -> option.apply(SdmqClient.builder(NOWHERE)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
