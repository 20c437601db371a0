package io.sdmq.core.mysql;

import io.sdmq.common.MessageStatus;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The sets of statuses that the SQL names, derived from {@link MessageStatus}'s own table so that no list of status
 * names is written a second time. Each set iterates in the enum's order.
 */
final class Statuses {
    /** The statuses a message does not leave on its own; the purge deletes messages in them. */
    static final Set<MessageStatus> TERMINAL = where(MessageStatus::isTerminal);
    /** The rest: the messages a restore pages through. */
    static final Set<MessageStatus> PENDING = where(status -> !status.isTerminal());
    /** Pending and in Redis (all but {@code WAIT_PUT}): the messages that can be overdue. */
    static final Set<MessageStatus> SCHEDULED = where(status -> PENDING.contains(status)
            && status != MessageStatus.WAIT_PUT);
    /**
     * The terminal statuses a Redis script decides, atomically with the message leaving Redis (a finish, a delete, a
     * death): the last transition of a message's life. Not EXPIRED, which a restore decides from MySQL beside Redis.
     */
    static final Set<MessageStatus> ENDED_IN_REDIS = where(status -> status.isTerminal()
            && status != MessageStatus.EXPIRED);
    /** The terminal statuses that a requeue leaves: a change from one of them has a guard of its own. */
    static final Set<MessageStatus> REQUEUED_FROM = where(status -> status.isTerminal()
            && Arrays.stream(MessageStatus.values()).anyMatch(status::canMoveTo));

    private Statuses() {
    }

    private static Set<MessageStatus> where(Predicate<MessageStatus> test) {
        EnumSet<MessageStatus> statuses = EnumSet.noneOf(MessageStatus.class);
        Arrays.stream(MessageStatus.values()).filter(test).forEach(statuses::add);
        return Collections.unmodifiableSet(statuses);
    }
}
