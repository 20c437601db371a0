package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/** A {@code sdmq_message} row as JDBC sees it; times are UTC wall-clock. */
record MessageRow(long id, String topic, String bizKey, String body, int priority, long delayMs, long ttrMs,
                  int maxAttempts, String retryDelays, LocalDateTime createTime, LocalDateTime dueTime,
                  String status, int attempts, LocalDateTime updateTime) {
}
