package io.sdmq.core;

/**
 * What a bulk action did.
 *
 * @param matched messages that matched when their page was read
 * @param changed those of them the action changed; the rest had moved on meanwhile (finished, popped, gone)
 */
public record BulkResult(long matched, long changed) {
}
