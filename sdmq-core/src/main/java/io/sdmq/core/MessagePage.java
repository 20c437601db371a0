package io.sdmq.core;

import io.sdmq.common.StoredMessage;

import java.util.List;

/**
 * A page of a search, newest first.
 *
 * @param items      the messages
 * @param nextCursor what asks for the next page, or null when this page is the last
 */
public record MessagePage(List<StoredMessage> items, String nextCursor) {
    public MessagePage {
        items = List.copyOf(items);
    }
}
