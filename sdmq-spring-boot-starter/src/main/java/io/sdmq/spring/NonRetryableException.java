package io.sdmq.spring;

/**
 * Thrown by an {@code @SdmqListener} method for a message no retry can help (a body that cannot be parsed, an order
 * that no longer exists): the message is made DEAD at once instead of being nacked for another attempt. An admin's
 * {@code /requeue} brings it back. Exception types named in {@link SdmqListener#nonRetryable()} do the same.
 */
public class NonRetryableException extends RuntimeException {

    public NonRetryableException(String message) {
        super(message);
    }

    public NonRetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
