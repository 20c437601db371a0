package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/** The parameters of one guarded status update; null attempts or due time leave the column as it is. */
record StatusChange(long id, String fromStatus, String toStatus, LocalDateTime changedAt, Integer attempts,
                    LocalDateTime dueTime) {
}
