package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WebhookSinkTypeTest {
    private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(new byte[32]);

    @Test
    void a_url_is_allowed_when_its_host_is_listed_exactly_or_is_a_subdomain_of_a_wildcard() {
        WebhookSinkType type = type(List.of("127.0.0.1", "*.example.com", "[::1]", "Hooks.Internal"));
        for (String url : List.of("http://127.0.0.1:8080/hook", "https://a.example.com/x", "https://a.b.EXAMPLE.com",
                "http://[::1]:9000/", "http://hooks.internal/in")) {
            assertThat(type.check(delivery(url)).get("url")).as(url).isEqualTo(url);
        }
        for (String url : List.of("http://127.0.0.2/", "https://example.com/", "https://evilexample.com/",
                "https://a.example.com.evil.net/", "http://[::2]/", "http://internal/")) {
            assertThatThrownBy(() -> type.check(delivery(url))).as(url).isInstanceOf(InvalidRequestException.class)
                    .hasMessageStartingWith("delivery.url: host");
        }
    }

    @Test
    void an_empty_list_refuses_every_url_naming_the_property() {
        assertThatThrownBy(() -> type(List.of()).check(delivery("http://127.0.0.1/")))
                .hasMessageStartingWith("delivery.url: host 127.0.0.1 is not allowed")
                .hasMessageContaining("sdmq.delivery.webhook.allowed-hosts").hasMessageContaining("empty");
    }

    @Test
    void the_checked_settings_have_their_defaults_and_are_shown_without_their_secrets() {
        Map<String, Object> checked = type(List.of("127.0.0.1")).check(delivery("http://127.0.0.1/"));
        assertThat(checked).containsExactly(Map.entry("type", "webhook"), Map.entry("url", "http://127.0.0.1/"),
                Map.entry("timeout", 10_000), Map.entry("secrets", List.of(SECRET)), Map.entry("concurrency", 16),
                Map.entry("retryOn4xx", false));
        assertThat(type(List.of()).shown(checked)).containsEntry("secretsSet", 1).doesNotContainKey("secrets")
                .doesNotContainValue(List.of(SECRET));
    }

    private static Map<String, Object> delivery(String url) {
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("type", "webhook");
        delivery.put("url", url);
        delivery.put("secrets", List.of(SECRET));
        return delivery;
    }

    private static WebhookSinkType type(List<String> allowedHosts) {
        DeliveryProperties properties = new DeliveryProperties(100, Duration.ofSeconds(1), Duration.ofSeconds(30),
                new DeliveryProperties.Webhook(allowedHosts));
        return new WebhookSinkType(properties, JsonMapper.builder().build(), Clock.systemUTC());
    }
}
