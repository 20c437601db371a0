package io.sdmq.common;

/** No message has this id. */
public class MessageNotFoundException extends SdmqException {
    public MessageNotFoundException(long id) {
        super("message " + id + " not found");
    }
}
