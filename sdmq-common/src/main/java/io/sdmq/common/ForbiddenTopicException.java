package io.sdmq.common;

/** The caller's token may not act on this topic: it is beyond the token's topic patterns. */
public class ForbiddenTopicException extends SdmqException {
    public ForbiddenTopicException(String message) {
        super(message);
    }
}
