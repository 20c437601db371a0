package io.sdmq.server.web;

import io.sdmq.common.Message;

/** A message as a consumer receives it; the id is a string because JavaScript loses 64-bit precision. */
public record DeliveredMessage(String id, String topic, String bizKey, String body, int attempts, long dueTime) {

    static DeliveredMessage of(Message m) {
        return new DeliveredMessage(Long.toString(m.id()), m.topic(), m.bizKey(), m.body(), m.attempts(), m.dueTime());
    }
}
