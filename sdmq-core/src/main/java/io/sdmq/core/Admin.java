package io.sdmq.core;

import io.sdmq.common.StoredMessage;

import java.util.List;
import java.util.Map;

/**
 * What operators do with sdmq. Every method validates its input and throws a subclass of
 * {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface Admin {

    /** Brings a DEAD or EXPIRED message back, due now, with its attempts counted afresh. */
    void requeue(long id);

    /** A message with its status and history, from MySQL. */
    MessageView message(long id);

    /**
     * The messages holding a business key in any topic, with their statuses, from MySQL; empty when none does. A key
     * is unique only within its topic, so there may be several.
     */
    List<StoredMessage> messagesByKey(String bizKey);

    /**
     * The topic of each id MySQL knows, in one query by primary key; an unknown id is left out. A message's topic never
     * changes, so an answer stays true for as long as its message exists.
     */
    Map<Long, String> topicsOf(List<Long> ids);

    /**
     * Rebuilds Redis from MySQL without deleting anything: every non-terminal message Redis does not hold is put
     * back; an overdue one is due now ({@code expire}) or marked EXPIRED (not {@code expire}).
     */
    RestoreCounts restore(boolean expire);

    /** The same for one message. */
    RestoreOutcome restoreMessage(long id, boolean expire);
}
