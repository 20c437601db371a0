package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;

/** Parses the {@code jobId} (or {@code id}) request parameter; public for the compatibility routes. */
public final class MessageIds {
    private MessageIds() {
    }

    public static long parse(String jobId, String id) {
        String field = jobId != null ? "jobId" : "id";
        String value = jobId != null ? jobId : id;
        if (value == null || value.isBlank()) {
            throw new InvalidRequestException("jobId", "is required");
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException(field, "must be a message id (a positive 64-bit integer)");
    }
}
