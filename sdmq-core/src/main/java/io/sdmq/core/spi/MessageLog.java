package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;

import java.util.List;
import java.util.Optional;

/**
 * The system of record: the message table and its status-transition log. Each call is one transaction.
 */
public interface MessageLog {

    /**
     * Stores new messages as {@code WAIT_PUT}, each with its first log row ({@code null -> WAIT_PUT}).
     *
     * @return for each message, in order, the id that now holds its {@code (topic, bizKey)}: its own id when it
     *         was inserted, the earlier message's id when that pair was taken (and nothing was written for it)
     */
    List<Long> insert(List<Message> messages);

    /**
     * Writes one log row per transition and moves each message's status (and attempts / due time when given).
     * A transition older than the row's last change, or one that would leave a terminal status, is logged but
     * does not move the status.
     */
    void apply(List<Transition> transitions);

    Optional<StoredMessage> find(long id);

    /** A message's transitions, oldest first. */
    List<Transition> history(long id);
}
