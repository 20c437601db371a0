package io.sdmq.core.engine;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The checks of the fields of a search and of a bulk action's filter; each throws {@link InvalidRequestException}
 * naming the field and its rule, and answers null for a field that is absent.
 */
final class OperatorFields {
    /** Most ids a filter names, as a batch push takes at most. */
    static final int MAX_IDS = 1_000;

    private OperatorFields() {
    }

    static String topic(String field, String topic) {
        return topic == null ? null : PushRules.checkTopic(field, topic);
    }

    static String bizKey(String bizKey) {
        if (bizKey != null && (bizKey.isEmpty() || bizKey.length() > PushRules.MAX_BIZ_KEY
                || !bizKey.strip().equals(bizKey))) {
            throw new InvalidRequestException("bizKey",
                    "must be 1.." + PushRules.MAX_BIZ_KEY + " characters without leading or trailing spaces when given");
        }
        return bizKey;
    }

    /** One status among {@code allowed}, or every one of them when absent. */
    static Set<MessageStatus> status(String status, Set<MessageStatus> allowed) {
        if (status == null) {
            return allowed;
        }
        MessageStatus named = Arrays.stream(MessageStatus.values()).filter(s -> s.name().equals(status)).findFirst()
                .filter(allowed::contains).orElseThrow(() -> new InvalidRequestException("status",
                        "must be one of " + allowed.stream().map(Enum::name).collect(Collectors.joining(", "))));
        return EnumSet.of(named);
    }

    /** An ISO-8601 instant as epoch milliseconds. */
    static Long instant(String field, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new InvalidRequestException(field, "must be an ISO-8601 instant such as 2026-11-27T18:00:00Z");
        }
    }

    static List<Long> ids(List<String> ids) {
        if (ids == null) {
            return List.of();
        }
        if (ids.isEmpty() || ids.size() > MAX_IDS) {
            throw new InvalidRequestException("ids", "must hold 1.." + MAX_IDS + " message ids when given");
        }
        List<Long> parsed = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            parsed.add(id("ids[" + i + "]", ids.get(i)));
        }
        return parsed;
    }

    private static long id(String field, String id) {
        try {
            long parsed = id == null ? 0 : Long.parseLong(id);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException(field, "must be a message id (a positive 64-bit integer)");
    }

    /** A whole number in {@code min..max}, or {@code absent} when not given. */
    static int number(String field, String value, int min, int max, int absent) {
        if (value == null) {
            return absent;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException(field, "must be a whole number in " + min + ".." + max);
    }
}
