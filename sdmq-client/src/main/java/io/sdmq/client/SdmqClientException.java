package io.sdmq.client;

/**
 * Every failure of an sdmq call, unchecked: the HTTP status (0 when no answer came) and the server's own message,
 * which names the field and the rule of a bad request. A subclass per case, so a caller catches the one it can
 * handle: {@link NotFound} after a delete of a message already gone, {@link Conflict} for a finish after the TTR.
 */
public abstract class SdmqClientException extends RuntimeException {
    private final int status;
    private final String serverMessage;

    SdmqClientException(int status, String serverMessage, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.serverMessage = serverMessage;
    }

    /** The HTTP status of the server's answer; 0 when the call got none (a connection failure, a client refusal). */
    public int status() {
        return status;
    }

    /** The server's {@code message}, e.g. {@code "topic: must match [A-Za-z0-9._-]{1,64}"}; null without one. */
    public String serverMessage() {
        return serverMessage;
    }

    /** The exception for the server's answer {@code status} with {@code serverMessage} to {@code call}. */
    static SdmqClientException answered(String call, int status, String serverMessage) {
        String text = call + " answered " + status + ": " + serverMessage;
        return switch (status) {
            case 400, 413 -> new InvalidRequest(status, serverMessage, text);
            case 404 -> new NotFound(serverMessage, text);
            case 409 -> new Conflict(serverMessage, text);
            case 429 -> new TooManyRequests(serverMessage, text);
            default -> status >= 500 ? new Unavailable(status, serverMessage, text)
                    : new Refused(status, serverMessage, text);
        };
    }

    /** 400: a field breaks a rule (the message names it); 413: a body over the server's size limit. Nothing changed. */
    public static final class InvalidRequest extends SdmqClientException {
        InvalidRequest(int status, String serverMessage, String message) {
            super(status, serverMessage, message, null);
        }
    }

    /** 404: no message has this id (or this topic and business key). */
    public static final class NotFound extends SdmqClientException {
        NotFound(String serverMessage, String message) {
            super(404, serverMessage, message, null);
        }
    }

    /** 409: the message's status does not allow the call (finish when not reserved, reschedule when ready, …). */
    public static final class Conflict extends SdmqClientException {
        Conflict(String serverMessage, String message) {
            super(409, serverMessage, message, null);
        }
    }

    /** 429: over the push rate of this token, or too many polls waiting on the topic. Not retried by the client. */
    public static final class TooManyRequests extends SdmqClientException {
        TooManyRequests(String serverMessage, String message) {
            super(429, serverMessage, message, null);
        }
    }

    /** 5xx: MySQL or Redis unavailable (503), still so after the client's retries; or another server error. */
    public static final class Unavailable extends SdmqClientException {
        Unavailable(int status, String serverMessage, String message) {
            super(status, serverMessage, message, null);
        }
    }

    /** Any other answer: 401 and 403 (see the server's tokens and roles), 405, 406, 415. */
    public static final class Refused extends SdmqClientException {
        Refused(int status, String serverMessage, String message) {
            super(status, serverMessage, message, null);
        }
    }

    /** No answer: the server could not be reached, or did not answer in time, still so after the retries. */
    public static final class ConnectionFailed extends SdmqClientException {
        ConnectionFailed(String message, Throwable cause) {
            super(0, null, message, cause);
        }
    }

    /** The client's buffer of messages not yet sent is full and {@link WhenBufferFull#FAIL} is set. */
    public static final class BufferFull extends SdmqClientException {
        BufferFull(String message) {
            super(0, null, message, null);
        }
    }

    /** The client was closed before this call. */
    public static final class Closed extends SdmqClientException {
        Closed(String message) {
            super(0, null, message, null);
        }
    }
}
