package io.sdmq.common;

/** A message as MySQL records it: the message, its status, and when that status was last set. */
public record StoredMessage(Message message, MessageStatus status, long updateTime) {
}
