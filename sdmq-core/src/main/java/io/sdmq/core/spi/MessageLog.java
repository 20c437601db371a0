package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The system of record: the message table and its status log, one row per status transition. Each call is one
 * transaction.
 */
public interface MessageLog {

    /**
     * Stores new messages as {@code WAIT_PUT}, each with its first status log row ({@code null -> WAIT_PUT}).
     *
     * @return for each message, in order, the id that now holds its {@code (topic, bizKey)}: its own id when it
     *         was inserted, the earlier message's id when that pair was taken (and nothing was written for it)
     */
    List<Long> insert(List<Message> messages);

    /**
     * Writes one status log row per transition and moves each message's status (and attempts / due time when given).
     * A transition older than the row's last change, or one that would leave a terminal status, is logged but
     * does not move the status.
     */
    void apply(List<Transition> transitions);

    /**
     * {@link #insert} and then {@link #apply}, in one transaction where the store can: one commit for the new
     * messages of concurrent pushes and the terminal transitions of concurrent finishes.
     */
    default List<Long> insertAndApply(List<Message> messages, List<Transition> transitions) {
        List<Long> ids = insert(messages);
        apply(transitions);
        return ids;
    }

    Optional<StoredMessage> find(long id);

    /** The messages of those ids that exist, in any order. */
    List<StoredMessage> findAll(List<Long> ids);

    /** The message holding a {@code (topic, bizKey)}, if any. */
    Optional<Long> findIdByKey(String topic, String bizKey);

    /**
     * The messages holding {@code bizKey} in any topic, in any order: a key is unique only within its topic, so there
     * may be several. For callers that know a key but not its topic (the ouqiang compatibility routes).
     */
    List<StoredMessage> findByKey(String bizKey);

    /**
     * Replaces a pending message's body and due time (debounce) and logs the transition, in one transaction; false
     * when the message is no longer WAIT_PUT or DELAY (nothing changed, nothing logged).
     */
    boolean replace(long id, String body, long dueTime, Transition transition);

    /** Non-terminal messages with an id above {@code afterId}, by id: the keyset pages of a restore. */
    List<StoredMessage> findPending(long afterId, int limit);

    /** Messages still {@code WAIT_PUT} (Redis did not take them) since before {@code updatedBefore}. */
    List<StoredMessage> findWaitPut(long updatedBefore, int limit);

    /** Messages in DELAY, READY or RESERVED due before {@code dueBefore}, with an id above {@code afterId}, by id. */
    List<StoredMessage> findOverdue(long dueBefore, long afterId, int limit);

    /**
     * Deletes up to {@code limit} terminal messages whose last change and due time are both before {@code before},
     * and their status log rows; answers how many messages it deleted. Only messages of {@code topic} when it is not
     * null; else of every topic but those in {@code except} (the topics with a retention of their own).
     */
    int purgeTerminal(long before, int limit, String topic, Collection<String> except);

    /** Up to {@code limit} messages matching the query, in its order: the pages of a search and of a bulk action. */
    List<StoredMessage> search(MessageQuery query, int limit);

    /**
     * Applies, as {@link #apply} does, those transitions whose message is still in the transition's {@code from}
     * status and last changed before the transition, and logs only them, in one transaction; the others (a message
     * that moved meanwhile, or changed at the transition's time or later) change nothing.
     *
     * @return the ids of the messages moved, in the transitions' order
     */
    List<Long> applyWhereStill(List<Transition> transitions);

    /** A message's transitions, oldest first. */
    List<Transition> history(long id);
}
