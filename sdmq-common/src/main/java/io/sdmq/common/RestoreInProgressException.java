package io.sdmq.common;

/** A restore from MySQL is already running on this instance; a second one is refused rather than run twice. */
public class RestoreInProgressException extends SdmqException {
    public RestoreInProgressException() {
        super("a restore is already running on this instance; retry when it has finished");
    }
}
