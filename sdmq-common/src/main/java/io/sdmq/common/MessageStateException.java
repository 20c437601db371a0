package io.sdmq.common;

/** The message exists but its status does not allow the operation. */
public class MessageStateException extends SdmqException {
    public MessageStateException(long id, MessageStatus status, String operation) {
        super("message " + id + " is " + status + "; cannot " + operation);
    }

    public MessageStateException(long id, String reason) {
        super("message " + id + " " + reason);
    }
}
