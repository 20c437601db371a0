package io.sdmq.core.engine;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.MessagePage;
import io.sdmq.core.MessageSearch;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.MessageQuery;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * A search of the message table, newest first (by id, which grows with the time a message was made), in keyset pages.
 * A cursor is the page's last id with a check digest of that id and the search's filters: a cursor altered, cut, or
 * sent with other filters than the search that made it is refused. The digest is no secret (the caller is an
 * operator who may start a page anywhere); it only keeps a wrong cursor from silently answering a wrong page.
 */
final class SearchMessages {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1_000;
    private static final String BAD_CURSOR = "must be the nextCursor of the page before, unchanged, with the same "
            + "topic, status, bizKey, createdFrom and createdTo";

    private final MessageLog messageLog;

    SearchMessages(MessageLog messageLog) {
        this.messageLog = messageLog;
    }

    MessagePage search(MessageSearch search) {
        String topic = OperatorFields.topic("topic", search.topic());
        Set<MessageStatus> statuses = search.status() == null ? Set.of()
                : OperatorFields.status(search.status(), EnumSet.allOf(MessageStatus.class));
        String bizKey = OperatorFields.bizKey(search.bizKey());
        Long from = OperatorFields.instant("createdFrom", search.createdFrom());
        Long to = OperatorFields.instant("createdTo", search.createdTo());
        int limit = OperatorFields.number("limit", search.limit(), 1, MAX_LIMIT, DEFAULT_LIMIT);
        String filters = String.join("\u0000", String.valueOf(topic), String.valueOf(statuses), String.valueOf(bizKey),
                String.valueOf(from), String.valueOf(to));
        long beyond = search.cursor() == null ? MessageQuery.START : beyondId(search.cursor(), filters);
        MessageQuery query = new MessageQuery(topic, statuses, bizKey, List.of(), from, to, null, null, true, beyond);
        List<StoredMessage> rows = messageLog.search(query, limit + 1);
        if (rows.size() <= limit) {
            return new MessagePage(rows, null);
        }
        List<StoredMessage> page = rows.subList(0, limit);
        return new MessagePage(page, cursor(page.get(limit - 1).message().id(), filters));
    }

    private static String cursor(long lastId, String filters) {
        String text = lastId + "." + check(lastId, filters);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static long beyondId(String cursor, String filters) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            int dot = text.indexOf('.');
            long lastId = Long.parseLong(text.substring(0, Math.max(dot, 0)));
            if (lastId > 0 && text.substring(dot + 1).equals(check(lastId, filters))) {
                return lastId;
            }
        } catch (IllegalArgumentException e) {
            // answered below (NumberFormatException is one)
        }
        throw new InvalidRequestException("cursor", BAD_CURSOR);
    }

    private static String check(long lastId, String filters) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((lastId + "\u0000" + filters).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256; this is a bug", e);
        }
    }
}
