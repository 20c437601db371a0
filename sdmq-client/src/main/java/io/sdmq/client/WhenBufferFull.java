package io.sdmq.client;

/** What a push does when the client's buffer of messages not yet sent is full. */
public enum WhenBufferFull {
    /** {@code push} and {@code pushAsync} wait until the sender has taken messages out of the buffer. */
    BLOCK,
    /**
     * {@code pushAsync} answers a future failed with {@link SdmqClientException.BufferFull} at once; {@code push}
     * throws it.
     */
    FAIL
}
