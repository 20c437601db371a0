package io.sdmq.server.delivery;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookSignatureTest {
    /** The test vector of the Standard Webhooks libraries. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void signs_the_standard_webhooks_test_vector() {
        assertThat(new WebhookSignature(List.of(SECRET)).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, BODY))
                .isEqualTo(SIGNATURE);
    }

    @Test
    void signs_once_per_secret_space_separated_in_their_order() {
        String other = "whsec_" + Base64.getEncoder().encodeToString(new byte[64]);
        String both = new WebhookSignature(List.of(other, SECRET)).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                BODY);
        assertThat(both.split(" ")).hasSize(2);
        assertThat(both.split(" ")[1]).isEqualTo(SIGNATURE);
        assertThat(both.split(" ")[0]).startsWith("v1,").isNotEqualTo(SIGNATURE);
    }

    @Test
    void a_secret_must_be_whsec_and_the_base64_of_24_to_64_bytes_and_is_never_repeated_in_the_error() {
        String b64 = Base64.getEncoder().encodeToString(new byte[23]);
        for (String bad : List.of("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_" + b64, "whsec_not base64!",
                "whsec_" + Base64.getEncoder().encodeToString(new byte[65]), "whsec_")) {
            assertThatThrownBy(() -> WebhookSignature.key(bad)).as(bad)
                    .hasMessage(WebhookSignature.RULE);
        }
        assertThat(WebhookSignature.key("whsec_" + Base64.getEncoder().encodeToString(new byte[24]))).hasSize(24);
        assertThat(WebhookSignature.key("whsec_" + Base64.getEncoder().encodeToString(new byte[64]))).hasSize(64);
        assertThat(new WebhookSignature(List.of(SECRET)).toString()).doesNotContain("MfKQ");
    }
}
