package io.sdmq.core.spi;

import io.sdmq.common.Message;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Test messages: {@code aMessage().topic("order").due(NOW + 5_000).build()}; every build gets a new id. */
public final class MessageBuilder {
    /** An epoch-ms instant tests count from. */
    public static final long NOW = 1_700_000_000_000L;

    private static final AtomicLong ids = new AtomicLong(7_300_000_000_000_000_000L);

    private Long id;
    private String topic = "order";
    private String bizKey;
    private String body = "{\"orderId\":42}";
    private int priority;
    private long createTime = NOW;
    private long dueTime = NOW;
    private long ttrMs = 30_000;
    private int maxAttempts = 8;
    private List<Long> retryDelays;
    private int attempts;

    private MessageBuilder() {
    }

    public static MessageBuilder aMessage() {
        return new MessageBuilder();
    }

    public MessageBuilder id(long value) {
        id = value;
        return this;
    }

    public MessageBuilder topic(String value) {
        topic = value;
        return this;
    }

    public MessageBuilder bizKey(String value) {
        bizKey = value;
        return this;
    }

    public MessageBuilder body(String value) {
        body = value;
        return this;
    }

    public MessageBuilder priority(int value) {
        priority = value;
        return this;
    }

    public MessageBuilder createdAt(long value) {
        createTime = value;
        return this;
    }

    public MessageBuilder due(long value) {
        dueTime = value;
        return this;
    }

    public MessageBuilder ttr(long value) {
        ttrMs = value;
        return this;
    }

    public MessageBuilder maxAttempts(int value) {
        maxAttempts = value;
        return this;
    }

    public MessageBuilder retryDelays(Long... values) {
        retryDelays = List.of(values);
        return this;
    }

    public MessageBuilder attempts(int value) {
        attempts = value;
        return this;
    }

    public Message build() {
        long messageId = id != null ? id : ids.incrementAndGet();
        return new Message(messageId, topic, bizKey, body, priority, createTime, dueTime, ttrMs, maxAttempts,
                retryDelays, attempts);
    }
}
