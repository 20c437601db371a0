package io.sdmq.common;

/** Root of every error sdmq answers a client with; each subclass carries its context. */
public abstract class SdmqException extends RuntimeException {
    protected SdmqException(String message) {
        super(message);
    }

    protected SdmqException(String message, Throwable cause) {
        super(message, cause);
    }
}
