package io.sdmq.client;

/** What a push does when its {@code (topic, bizKey)} is already taken on the server. */
public enum OnDuplicate {
    /** The push changes nothing and answers the id of the message that holds the key (the server's default). */
    IGNORE,
    /**
     * A still-pending holder takes the new body and due time atomically; once it is ready or reserved the push
     * answers 409.
     */
    REPLACE;

    /** The name the server reads in the {@code onDuplicate} field. */
    String wireName() {
        return this == IGNORE ? "ignore" : "replace";
    }
}
