package io.sdmq.core.mysql;

import java.time.LocalDateTime;
import java.util.List;

/**
 * The parameters of one guarded status update of one or more messages; for one message it may stand for several of
 * its transitions (see {@link StatusChanges}). Null attempts or due time leave the column as it is; a non-null one is
 * written only when the row is not newer than {@code attemptsAt} / {@code dueTimeAt}, the time of the transition
 * that carried it.
 */
record StatusChange(List<Long> ids, String fromStatus, String toStatus, LocalDateTime changedAt, Integer attempts,
                    LocalDateTime attemptsAt, LocalDateTime dueTime, LocalDateTime dueTimeAt) {

    StatusChange withIds(List<Long> newIds) {
        return new StatusChange(newIds, fromStatus, toStatus, changedAt, attempts, attemptsAt, dueTime, dueTimeAt);
    }
}
