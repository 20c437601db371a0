package io.sdmq.server.ui;

import io.sdmq.common.InvalidRequestException;

import java.util.Arrays;
import java.util.List;

/** The dashboard's form fields read as numbers: blank is absent, anything else must parse, or "field: rule". */
final class UiForms {
    private UiForms() {
    }

    static Long whole(String field, String value) {
        if (blank(value)) {
            return null;
        }
        try {
            return Long.valueOf(value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(field, "must be a whole number");
        }
    }

    static Integer integer(String field, String value) {
        Long whole = whole(field, value);
        if (whole != null && (whole < Integer.MIN_VALUE || whole > Integer.MAX_VALUE)) {
            throw new InvalidRequestException(field, "must be a whole number up to " + Integer.MAX_VALUE);
        }
        return whole == null ? null : whole.intValue();
    }

    /** A comma-separated list of whole numbers ({@code 1000, 5000}); null when blank. */
    static List<Long> wholes(String field, String value) {
        if (blank(value)) {
            return null;
        }
        try {
            return Arrays.stream(value.split(",")).map(String::strip).map(Long::valueOf).toList();
        } catch (NumberFormatException e) {
            throw new InvalidRequestException(field, "must be whole numbers separated by commas");
        }
    }

    /** The text, or null when blank: an empty search field is no filter. */
    static String text(String value) {
        return blank(value) ? null : value.strip();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
