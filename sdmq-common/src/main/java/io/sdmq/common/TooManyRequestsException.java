package io.sdmq.common;

/** A limit was reached; the client may retry later. */
public class TooManyRequestsException extends SdmqException {
    public TooManyRequestsException(String message) {
        super(message);
    }
}
