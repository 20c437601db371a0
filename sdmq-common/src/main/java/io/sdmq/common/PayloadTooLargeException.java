package io.sdmq.common;

/** A body over the configured size limit. */
public class PayloadTooLargeException extends InvalidRequestException {
    public PayloadTooLargeException(String field, int limitBytes) {
        super(field, "must be at most " + limitBytes + " bytes (UTF-8)");
    }
}
