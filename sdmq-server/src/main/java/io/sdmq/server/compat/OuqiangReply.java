package io.sdmq.server.compat;

/**
 * ouqiang's reply: {@code code} 0 on success and 1 on any failure, always with HTTP 200, as its server answers; on a
 * failure {@code message} is sdmq's, naming the field and the rule, and {@code data} is null.
 */
record OuqiangReply(int code, String message, Object data) {
    static final int OK = 0;
    static final int FAILED = 1;

    static OuqiangReply ok(String message, Object data) {
        return new OuqiangReply(OK, message, data);
    }

    static OuqiangReply failed(String message) {
        return new OuqiangReply(FAILED, message, null);
    }

    /** A popped job: its id is the client's (the message's bizKey). */
    record Job(String id, String body) {
    }
}
