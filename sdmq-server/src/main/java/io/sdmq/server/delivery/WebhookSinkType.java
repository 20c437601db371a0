package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Delivery to an HTTP endpoint ({@code "type": "webhook"}): a POST per message, signed as Standard Webhooks signs, to
 * a URL whose host {@code sdmq.delivery.webhook.allowed-hosts} names. Its settings: {@code url}, {@code timeout}
 * (ms), {@code secrets}, {@code concurrency}, {@code retryOn4xx}.
 */
@Component
public class WebhookSinkType implements SinkType {
    private static final Set<String> FIELDS = Set.of("url", "timeout", "secrets", "concurrency", "retryOn4xx");
    private static final String HOSTS_RULE = "a webhook may only call a host named in "
            + "sdmq.delivery.webhook.allowed-hosts (exact names or addresses, or *.example.com for its subdomains)";

    private final List<String> allowedHosts;
    private final JsonMapper json;
    private final Clock clock;

    public WebhookSinkType(DeliveryProperties properties, JsonMapper json, Clock clock) {
        this.allowedHosts = properties.webhook().allowedHosts().stream().map(WebhookSinkType::plainHost).toList();
        this.json = json;
        this.clock = clock;
    }

    @Override
    public String type() {
        return "webhook";
    }

    @Override
    public Map<String, Object> check(Map<String, Object> delivery) {
        DeliveryFields fields = new DeliveryFields(delivery, FIELDS);
        checkUrl(fields.string("url", true, 2_048));
        fields.integer("timeout", 10_000, 100, 60_000);
        List<String> secrets = fields.strings("secrets", 1, 4, 200);
        for (int i = 0; i < secrets.size(); i++) {
            try {
                WebhookSignature.key(secrets.get(i));
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("delivery.secrets", "[" + i + "] " + e.getMessage());
            }
        }
        fields.integer("concurrency", 16, 1, 256);
        fields.bool("retryOn4xx", false);
        return fields.checked();
    }

    /** The settings with {@code secrets} replaced by {@code secretsSet}, their count. */
    @Override
    public Map<String, Object> shown(Map<String, Object> delivery) {
        Map<String, Object> shown = new LinkedHashMap<>();
        delivery.forEach((field, value) -> {
            if (field.equals("secrets")) {
                shown.put("secretsSet", value instanceof List<?> list ? list.size() : 0);
            } else {
                shown.put(field, value);
            }
        });
        return shown;
    }

    /** Checks the URL again, since the allowed hosts may have changed since the settings were stored. */
    @Override
    public Sink open(String topic, Map<String, Object> delivery) {
        return new WebhookSink(topic, checkUrl((String) delivery.get("url")), delivery, json, clock);
    }

    private URI checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new InvalidRequestException("delivery.url", "must be an http or https URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new InvalidRequestException("delivery.url", "must be an http or https URL with a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidRequestException("delivery.url", "must not hold a user or password, since admins see it;"
                    + " the receiver checks the webhook-signature header instead");
        }
        if (!allowed(plainHost(uri.getHost()))) {
            throw new InvalidRequestException("delivery.url", "host " + uri.getHost() + " is not allowed: "
                    + HOSTS_RULE + (allowedHosts.isEmpty() ? "; that list is empty, which refuses every webhook" : ""));
        }
        return uri;
    }

    private boolean allowed(String host) {
        for (String allowed : allowedHosts) {
            if (allowed.startsWith("*.") ? host.endsWith(allowed.substring(1)) && host.length() > allowed.length() - 1
                    : host.equals(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** A host name in lower case, an IPv6 address without its brackets. */
    private static String plainHost(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }
}
