package io.sdmq.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which messages a bulk action changes, as an operator sends it, every field as given (null when absent); each field
 * that is set narrows the match, and {@code all} must be true when none is, so that no forgotten field changes every
 * message. The action checks them.
 *
 * @param topic     the topic
 * @param ids       these ids only (at most 1 000, as decimal text)
 * @param bizKey    the business key
 * @param status    a status's name, among those the action takes
 * @param dueBefore due before this ISO-8601 instant
 * @param all       true to match every message the action takes, with no other field
 */
public record BulkFilter(String topic, List<String> ids, String bizKey, String status, String dueBefore,
                         Boolean all) {
    /** Copies the ids, nulls kept so that the action can name them. */
    public BulkFilter {
        ids = ids == null ? null : Collections.unmodifiableList(new ArrayList<>(ids));
    }
}
