package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;

import java.util.List;
import java.util.Set;

/**
 * Which messages a search or a bulk action's page reads from the message table, and in which order: every field that
 * is not null (or not empty) narrows the match. Times are epoch milliseconds; a page continues beyond {@code beyondId}
 * (below it newest first, above it oldest first).
 *
 * @param topic       the topic, or null for any
 * @param statuses    the statuses, or empty for any
 * @param bizKey      the business key, or null for any
 * @param ids         these ids only, or empty for any
 * @param createdFrom created at or after, or null
 * @param createdTo   created before, or null
 * @param dueAfter    due after, or null
 * @param dueBefore   due before, or null
 * @param newestFirst by id descending (a search) or ascending (a bulk action's pages)
 * @param beyondId    the last id of the page before, or {@link #START}
 */
public record MessageQuery(String topic, Set<MessageStatus> statuses, String bizKey, List<Long> ids, Long createdFrom,
                           Long createdTo, Long dueAfter, Long dueBefore, boolean newestFirst, long beyondId) {
    /** The {@code beyondId} of a first page. */
    public static final long START = -1;

    public MessageQuery {
        statuses = Set.copyOf(statuses);
        ids = List.copyOf(ids);
        if (beyondId == START) {
            beyondId = newestFirst ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
    }

    /** The same query for the page after the one that ended with {@code lastId}. */
    public MessageQuery after(long lastId) {
        return new MessageQuery(topic, statuses, bizKey, ids, createdFrom, createdTo, dueAfter, dueBefore, newestFirst,
                lastId);
    }

    /** Whether a message matches, for stores that test in memory. */
    public boolean matches(StoredMessage row) {
        Message m = row.message();
        return (topic == null || topic.equals(m.topic())) && (statuses.isEmpty() || statuses.contains(row.status()))
                && (bizKey == null || bizKey.equals(m.bizKey())) && (ids.isEmpty() || ids.contains(m.id()))
                && (createdFrom == null || m.createTime() >= createdFrom)
                && (createdTo == null || m.createTime() < createdTo)
                && (dueAfter == null || m.dueTime() > dueAfter) && (dueBefore == null || m.dueTime() < dueBefore)
                && (newestFirst ? m.id() < beyondId : m.id() > beyondId);
    }
}
