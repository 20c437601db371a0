package io.sdmq.common;

/** No message has this id. */
public class MessageNotFoundException extends SdmqException {
    public MessageNotFoundException(long id) {
        super("message " + id + " not found");
    }

    public MessageNotFoundException(String topic, String bizKey) {
        super("no message of topic " + topic + " has bizKey " + bizKey);
    }
}
