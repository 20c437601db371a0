package io.sdmq.common;

/** A backing service (MySQL, Redis) cannot take the request now; nothing was accepted. */
public class UnavailableException extends SdmqException {
    public UnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
