package io.sdmq.core;

/**
 * A search of the message table as an operator asks it, every field as given (null when absent); {@link Admin#search}
 * checks them. Times are ISO-8601 instants ({@code 2026-11-27T18:00:00Z}).
 *
 * @param topic       the topic, or null for any
 * @param status      a status's name, or null for any
 * @param bizKey      a business key, or null for any
 * @param createdFrom created at or after
 * @param createdTo   created before
 * @param limit       most messages in the page, 1..1000; null for 100
 * @param cursor      the {@code nextCursor} of the page before, or null for the first page
 */
public record MessageSearch(String topic, String status, String bizKey, String createdFrom, String createdTo,
                            String limit, String cursor) {
}
