package io.sdmq.server.compat;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PayloadTooLargeException;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

/**
 * An ouqiang request body, read as its Go server reads one: a JSON object whatever the {@code Content-Type}, fields it
 * does not know ignored, {@code null} the same as absent, identifiers trimmed, numbers whole (Go's {@code int64}).
 */
final class OuqiangBody {
    private static final String SHAPE = "must be a JSON object such as {\"topic\": \"order\", \"id\": \"15702398321\"}";

    private final JsonNode fields;

    private OuqiangBody(JsonNode fields) {
        this.fields = fields;
    }

    /**
     * Reads the request's body itself, up to {@code limit} bytes: Spring MVC would rebuild a form-encoded body from its
     * parameters, and clients such as {@code curl -d} send JSON as {@code application/x-www-form-urlencoded}.
     */
    static OuqiangBody read(HttpServletRequest request, JsonMapper json, int limit) {
        byte[] raw;
        try {
            raw = request.getInputStream().readNBytes(limit + 1);
        } catch (IOException e) {
            throw new InvalidRequestException("request body", "could not be read to its end");
        }
        if (raw.length > limit) {
            throw new PayloadTooLargeException("request body", limit);
        }
        return parse(raw, json);
    }

    static OuqiangBody parse(byte[] raw, JsonMapper json) {
        if (raw == null || raw.length == 0) {
            throw new InvalidRequestException("request body", SHAPE);
        }
        try {
            JsonNode node = json.readTree(raw);
            if (node != null && node.isObject()) {
                return new OuqiangBody(node);
            }
        } catch (JacksonException e) {
            // answered below, without the parser's words, which name its classes
        }
        throw new InvalidRequestException("request body", SHAPE);
    }

    /** A string field with its outer white space trimmed, as ouqiang trims ids and topics; required. */
    String identifier(String field) {
        String value = text(field).strip();
        if (value.isEmpty()) {
            throw new InvalidRequestException(field, "is required (a non-blank string)");
        }
        return value;
    }

    /** A string field as sent; empty when absent, as Go leaves a string it did not find. */
    String text(String field) {
        JsonNode value = fields.get(field);
        if (value == null || value.isNull()) {
            return "";
        }
        if (!value.isString()) {
            throw new InvalidRequestException(field, "must be a string");
        }
        return value.asString();
    }

    /** A whole number of seconds in {@code 1..max}; required, as ouqiang refuses 0. */
    long seconds(String field, long max) {
        JsonNode value = fields.get(field);
        if (value == null || value.isNull()) {
            throw new InvalidRequestException(field, "is required (whole seconds in 1.." + max + ")");
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 1 || value.asLong() > max) {
            throw new InvalidRequestException(field, "must be whole seconds in 1.." + max);
        }
        return value.asLong();
    }
}
