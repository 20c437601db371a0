package io.sdmq.server.ui;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;

import java.time.Instant;

/** A message as the dashboard shows it: the search's fields, times as instants. */
record MessageItem(String id, String topic, String bizKey, String body, String status, int attempts, int maxAttempts,
                   int priority, long ttr, Instant created, Instant due, Instant updated) {
    static MessageItem of(StoredMessage s) {
        Message m = s.message();
        return new MessageItem(Long.toString(m.id()), m.topic(), m.bizKey(), m.body(), s.status().name(),
                m.attempts(), m.maxAttempts(), m.priority(), m.ttrMs(), Instant.ofEpochMilli(m.createTime()),
                Instant.ofEpochMilli(m.dueTime()), Instant.ofEpochMilli(s.updateTime()));
    }
}
