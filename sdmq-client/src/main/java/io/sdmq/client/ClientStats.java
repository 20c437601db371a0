package io.sdmq.client;

/**
 * What a client has sent so far, counted since it was built: a snapshot, for tests and for a metrics gauge.
 *
 * @param requests        HTTP requests sent, of every kind, each attempt counted
 * @param retries         of those, the ones sent again after a 503 or a connection failure
 * @param batches         {@code /push/batch} calls made for the messages of {@code push} and {@code pushAsync}
 *                        (first attempts)
 * @param batchedMessages the messages in those calls
 */
public record ClientStats(long requests, long retries, long batches, long batchedMessages) {
}
