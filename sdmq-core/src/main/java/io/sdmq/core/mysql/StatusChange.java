package io.sdmq.core.mysql;

import io.sdmq.common.MessageStatus;

import java.time.LocalDateTime;
import java.util.List;

/**
 * The parameters of one guarded status update of one or more messages; for one message it may stand for several of
 * its transitions (see {@link StatusChanges}). Null attempts or due time leave the column as it is; a non-null one is
 * written only when the row is not newer than {@code attemptsAt} / {@code dueTimeAt}, the time of the transition
 * that carried it. When {@code timed} is not null, each message has a time of its own (there, and no changedAt),
 * which both guards its row and becomes its update time; such a change carries no attempts or due time.
 */
record StatusChange(List<Long> ids, MessageStatus fromStatus, MessageStatus toStatus, LocalDateTime changedAt,
                    Integer attempts, LocalDateTime attemptsAt, LocalDateTime dueTime, LocalDateTime dueTimeAt,
                    List<Timed> timed) {

    /** One message of a change whose messages each have their own time. */
    record Timed(long id, LocalDateTime at) {
    }

    StatusChange withIds(List<Long> newIds) {
        return new StatusChange(newIds, fromStatus, toStatus, changedAt, attempts, attemptsAt, dueTime, dueTimeAt,
                timed);
    }

    static StatusChange timed(MessageStatus fromStatus, MessageStatus toStatus, List<Timed> timed) {
        return new StatusChange(timed.stream().map(Timed::id).toList(), fromStatus, toStatus, null, null, null, null,
                null, timed);
    }
}
