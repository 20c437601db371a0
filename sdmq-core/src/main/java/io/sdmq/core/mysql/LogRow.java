package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/**
 * A {@code sdmq_message_log} row as JDBC sees it; times are UTC wall-clock. Public for MyBatis, see
 * {@link MessageRow}.
 */
public record LogRow(long messageId, String fromStatus, String toStatus, LocalDateTime changedAt, String bucket,
                     String host, String thread, String note) {
}
