package io.sdmq.common;

/** A request field breaks a rule; the message names the field and the rule. */
public class InvalidRequestException extends SdmqException {
    public InvalidRequestException(String field, String rule) {
        super(field + ": " + rule);
    }
}
