package io.sdmq.core;

import io.sdmq.common.StoredMessage;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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

    /** A page of the messages matching a search, newest first; the page's {@code nextCursor} asks for the next. */
    MessagePage search(MessageSearch search);

    /**
     * Pending messages matching the filter that are not yet due become due now, keeping their ids. {@code caller}
     * names who asked, in the status log's note of every change, as every bulk action's does. A bulk action works in
     * bounded pages, changes a message only where it still is what its page read, and can be repeated safely.
     */
    BulkResult runNow(BulkFilter filter, String caller);

    /** DEAD or EXPIRED messages matching the filter come back, due now, with their attempts counted afresh. */
    BulkResult requeue(BulkFilter filter, String caller);

    /** Pending or reserved messages matching the filter are deleted. */
    BulkResult delete(BulkFilter filter, String caller);

    /** Every pending message of the topic is deleted. */
    BulkResult purge(String topic, String caller);

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

    /**
     * Starts the same restore on a thread of its own and answers at once, with the future of its counts.
     * {@code progress}, which must not throw, is told zeros before this answers, then the counts so far after each
     * page of rows, on the restore's thread. Throws {@link io.sdmq.common.RestoreInProgressException} at once while a
     * restore runs on this instance.
     */
    CompletableFuture<RestoreCounts> startRestore(boolean expire, java.util.function.Consumer<RestoreCounts> progress);

    /** The same for one message. */
    RestoreOutcome restoreMessage(long id, boolean expire);
}
