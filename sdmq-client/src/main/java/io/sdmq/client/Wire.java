package io.sdmq.client;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The JSON of the HTTP API, built and read as Jackson trees: a pushed message as the server reads it (times in
 * milliseconds, {@code onDuplicate} in lower case, fields left null not sent, so the server applies its defaults;
 * a message with neither delay nor deliverAt is sent with delay 0, as the server wants one of them), and the
 * {@code data} of its answers.
 */
final class Wire {
    private final JsonMapper json = JsonMapper.builder().build();

    String write(JsonNode node) {
        return json.writeValueAsString(node);
    }

    ObjectNode message(PushMessage m) {
        ObjectNode node = json.createObjectNode();
        node.put("topic", m.topic());
        node.put("body", m.body());
        if (m.delay() != null || m.deliverAt() == null) {
            node.put("delay", m.delay() == null ? 0 : m.delay().toMillis());
        }
        if (m.deliverAt() != null) {
            node.put("deliverAt", m.deliverAt().toEpochMilli());
        }
        if (m.bizKey() != null) {
            node.put("bizKey", m.bizKey());
        }
        if (m.priority() != null) {
            node.put("priority", m.priority());
        }
        if (m.ttr() != null) {
            node.put("ttr", m.ttr().toMillis());
        }
        if (m.maxAttempts() != null) {
            node.put("maxAttempts", m.maxAttempts());
        }
        if (m.retryDelays() != null) {
            ArrayNode delays = node.putArray("retryDelays");
            m.retryDelays().stream().map(Duration::toMillis).forEach(delays::add);
        }
        if (m.onDuplicate() == OnDuplicate.REPLACE) {
            node.put("onDuplicate", m.onDuplicate().wireName());
        }
        return node;
    }

    ArrayNode messages(List<PushMessage> messages) {
        ArrayNode array = json.createArrayNode();
        messages.forEach(m -> array.add(message(m)));
        return array;
    }

    ArrayNode ids(List<String> ids) {
        ArrayNode array = json.createArrayNode();
        ids.forEach(array::add);
        return array;
    }

    /** The reply's envelope; null when the reply is not JSON (a proxy's error page, say). */
    JsonNode envelope(String reply) {
        try {
            JsonNode node = json.readTree(reply);
            return node != null && node.isObject() ? node : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    static List<String> strings(JsonNode data) {
        return list(data, Wire::text);
    }

    static List<Delivered> delivered(JsonNode data) {
        return list(data, m -> new Delivered(text(m.path("id")), text(m.path("topic")), text(m.path("bizKey")),
                text(m.path("body")), m.path("attempts").asInt(), m.path("dueTime").asLong()));
    }

    static List<FinishOutcome> finishOutcomes(JsonNode data) {
        return list(data, r -> new FinishOutcome(text(r.path("id")), r.path("code").asInt(), text(r.path("message"))));
    }

    /** A string value, or null for JSON null or an absent field. */
    static String text(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? null : node.asString();
    }

    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> element) {
        if (array == null || !array.isArray()) {
            throw new IllegalStateException("expected a JSON array from the server, got " + array);
        }
        List<T> list = new ArrayList<>(array.size());
        array.forEach(node -> list.add(element.apply(node)));
        return list;
    }
}
