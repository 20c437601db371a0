package io.sdmq.core.mysql;

import java.time.LocalDateTime;

/**
 * A {@code sdmq_message} row as JDBC sees it; times are UTC wall-clock. Public, as is its constructor: MyBatis
 * builds each row through it, and on a constructor it may not call it catches an IllegalAccessException (with its
 * stack trace) and makes it accessible again on every row, which was most of the cost of reading a page.
 */
public record MessageRow(long id, String topic, String bizKey, String body, int priority, long delayMs, long ttrMs,
                         int maxAttempts, String retryDelays, LocalDateTime createTime, LocalDateTime dueTime,
                         String status, int attempts, LocalDateTime updateTime) {
}
