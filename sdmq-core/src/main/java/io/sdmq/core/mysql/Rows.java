package io.sdmq.core.mysql;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Converts between the model and rows. Times are UTC wall-clock: {@link LocalDateTime} in rows, read from DATETIME(3)
 * by the driver as they are, and written as {@link #text} (see there), so neither the JVM's nor the session's time
 * zone can shift them.
 */
final class Rows {
    static final int BUCKET_LENGTH = 200;
    static final int HOST_LENGTH = 128;
    static final int THREAD_LENGTH = 128;
    static final int NOTE_LENGTH = 255;
    private static final DateTimeFormatter DATETIME_3 = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    private Rows() {
    }

    static MessageRow newMessage(Message m) {
        LocalDateTime created = utc(m.createTime());
        return new MessageRow(m.id(), m.topic(), m.bizKey(), m.body(), m.priority(), m.delayMs(), m.ttrMs(),
                m.maxAttempts(), joinDelays(m.retryDelays()), created, utc(m.dueTime()),
                MessageStatus.WAIT_PUT.name(), 0, created);
    }

    static StatusLogRow firstStatusLogRow(Message m, String host, String thread) {
        return new StatusLogRow(m.id(), null, MessageStatus.WAIT_PUT.name(), utc(m.createTime()), null,
                clip(host, HOST_LENGTH), clip(thread, THREAD_LENGTH), null);
    }

    static StatusLogRow statusLogRow(Transition t, String host) {
        return new StatusLogRow(t.messageId(), t.from() == null ? null : t.from().name(), t.to().name(),
                utc(t.changedAt()), clip(t.bucket(), BUCKET_LENGTH), clip(host, HOST_LENGTH),
                clip(t.thread(), THREAD_LENGTH), clip(t.note(), NOTE_LENGTH));
    }

    static StoredMessage stored(MessageRow r) {
        Message message = new Message(r.id(), r.topic(), r.bizKey(), r.body(), r.priority(),
                epochMs(r.createTime()), epochMs(r.dueTime()), r.ttrMs(), r.maxAttempts(),
                parseDelays(r.retryDelays()), r.attempts());
        return new StoredMessage(message, MessageStatus.valueOf(r.status()), epochMs(r.updateTime()));
    }

    static Transition transition(StatusLogRow r) {
        MessageStatus from = r.fromStatus() == null ? null : MessageStatus.valueOf(r.fromStatus());
        return new Transition(r.messageId(), from, MessageStatus.valueOf(r.toStatus()), epochMs(r.changedAt()),
                r.bucket(), null, null, r.thread(), r.note(), r.host());
    }

    static LocalDateTime utc(long epochMs) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMs), ZoneOffset.UTC);
    }

    /**
     * A UTC time as DATETIME(3) text, which MySQL and MariaDB take to the millisecond with no time zone applied. Times
     * are written as text, never as temporal parameters: Connector/J drops their milliseconds when it cannot tell that
     * the server keeps fractional seconds, as with MariaDB before 11, which announces itself as "5.5.5-10.…".
     */
    static String text(LocalDateTime utc) {
        return DATETIME_3.format(utc);
    }

    static String text(long epochMs) {
        return text(utc(epochMs));
    }

    static long epochMs(LocalDateTime utc) {
        return utc.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static String joinDelays(List<Long> delays) {
        return delays == null ? null : delays.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    static List<Long> parseDelays(String delays) {
        if (delays == null) {
            return null;
        }
        if (delays.isBlank()) {
            return List.of();
        }
        return Arrays.stream(delays.split(",")).map(String::trim).map(Long::valueOf).toList();
    }

    /** Cuts a free-text value to its column's length, never between the two halves of a surrogate pair. */
    static String clip(String value, int length) {
        if (value == null || value.length() <= length) {
            return value;
        }
        int end = Character.isHighSurrogate(value.charAt(length - 1)) ? length - 1 : length;
        return value.substring(0, end);
    }
}
