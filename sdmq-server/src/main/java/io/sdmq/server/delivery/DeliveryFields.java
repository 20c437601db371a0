package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a topic's delivery settings as an admin sent them (JSON values) for a {@link SinkType}'s check: each bad field
 * is an {@link InvalidRequestException} naming {@code delivery.<field>} and its rule. Collects the checked settings,
 * type first, in {@link #checked()}.
 */
public final class DeliveryFields {
    private final Map<String, Object> given;
    private final Map<String, Object> checked = new LinkedHashMap<>();

    /** Fails on a field the type does not know; {@code known} excludes {@code type}. */
    public DeliveryFields(Map<String, Object> given, Set<String> known) {
        this.given = given;
        for (String field : new TreeSet<>(given.keySet())) {
            if (!field.equals("type") && !known.contains(field)) {
                throw new InvalidRequestException("delivery." + field, "is unknown for type " + given.get("type")
                        + "; known: " + String.join(", ", new TreeSet<>(known)));
            }
        }
        checked.put("type", given.get("type"));
    }

    /** A string of 1..maxLength characters; null when absent and not required. */
    public String string(String field, boolean required, int maxLength) {
        Object value = given.get(field);
        if (value == null) {
            if (required) {
                throw new InvalidRequestException("delivery." + field, "is required");
            }
            return null;
        }
        if (!(value instanceof String s) || s.length() > maxLength) {
            throw new InvalidRequestException("delivery." + field, "must be a string of at most " + maxLength
                    + " characters");
        }
        checked.put(field, s);
        return s;
    }

    /** An integer in min..max, {@code fallback} when absent. */
    public int integer(String field, int fallback, int min, int max) {
        Object value = given.get(field);
        long n;
        if (value == null) {
            n = fallback;
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            n = ((Number) value).longValue();
        } else {
            throw new InvalidRequestException("delivery." + field, "must be an integer in " + min + ".." + max);
        }
        if (n < min || n > max) {
            throw new InvalidRequestException("delivery." + field, "must be in " + min + ".." + max);
        }
        checked.put(field, (int) n);
        return (int) n;
    }

    /** A boolean, {@code fallback} when absent. */
    public boolean bool(String field, boolean fallback) {
        Object value = given.get(field);
        if (value != null && !(value instanceof Boolean)) {
            throw new InvalidRequestException("delivery." + field, "must be true or false");
        }
        boolean b = value == null ? fallback : (Boolean) value;
        checked.put(field, b);
        return b;
    }

    /** A list of minSize..maxSize strings of 1..maxLength characters each. */
    public List<String> strings(String field, int minSize, int maxSize, int maxLength) {
        Object value = given.get(field);
        String rule = "must be a list of " + minSize + ".." + maxSize + " strings of 1.." + maxLength + " characters";
        if (!(value instanceof List<?> list) || list.size() < minSize || list.size() > maxSize) {
            throw new InvalidRequestException("delivery." + field, rule);
        }
        List<String> strings = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof String s) || s.isEmpty() || s.length() > maxLength) {
                throw new InvalidRequestException("delivery." + field, rule);
            }
            strings.add(s);
        }
        checked.put(field, List.copyOf(strings));
        return strings;
    }

    /** What was read, with defaults filled in: the settings to store. */
    public Map<String, Object> checked() {
        return checked;
    }
}
