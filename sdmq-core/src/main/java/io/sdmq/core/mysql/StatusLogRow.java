package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/**
 * A row of the status log, {@code sdmq_message_log}, as JDBC sees it; times are UTC wall-clock. Public for MyBatis,
 * see {@link MessageRow}.
 */
public record StatusLogRow(long messageId, String fromStatus, String toStatus, LocalDateTime changedAt,
                           String bucket, String host, String thread, String note) {
}
