package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/**
 * The parameters of one guarded status update, which may stand for several transitions of one message (see
 * {@link StatusChanges}). Null attempts or due time leave the column as it is; a non-null one is written only when
 * the row is not newer than {@code attemptsAt} / {@code dueTimeAt}, the time of the transition that carried it.
 */
record StatusChange(long id, String fromStatus, String toStatus, LocalDateTime changedAt, Integer attempts,
                    LocalDateTime attemptsAt, LocalDateTime dueTime, LocalDateTime dueTimeAt) {
}
