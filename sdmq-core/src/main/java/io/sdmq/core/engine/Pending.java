package io.sdmq.core.engine;

import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.spi.MessageLog;

/** The check every call on one message makes when Redis does not hold it: does MySQL know it, and is it pending? */
final class Pending {
    private Pending() {
    }

    /** The stored message, unless it is unknown (404) or already terminal (409 for {@code operation}). */
    static StoredMessage require(MessageLog messageLog, long id, String operation) {
        StoredMessage stored = messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (stored.status().isTerminal()) {
            throw new MessageStateException(id, stored.status(), operation);
        }
        return stored;
    }
}
