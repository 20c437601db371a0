package io.sdmq.client;

/**
 * A message a consumer received from {@code /get}, reserved for its time-to-run: finish it, nack it or touch it by its
 * {@code id} before then.
 *
 * @param id       the message id, a 64-bit number as a string (as the server sends it)
 * @param topic    its topic
 * @param bizKey   its business key, or null
 * @param body     its body
 * @param attempts this delivery's number, 1 for the first
 * @param dueTime  when it was due, epoch milliseconds
 */
public record Delivered(String id, String topic, String bizKey, String body, int attempts, long dueTime) {
}
