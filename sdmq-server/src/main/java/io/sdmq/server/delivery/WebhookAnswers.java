package io.sdmq.server.delivery;

import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * What a webhook receiver's answer comes to: a 2xx delivers; 408, 429, 5xx are retried (429 and 503 after their
 * {@code Retry-After}, at most an hour, when they give one); a 3xx is DEAD, since redirects are not followed; any
 * other 4xx is DEAD, or retried with {@code retryOn4xx}. The note is {@code webhook <status> <start of the body>}.
 */
final class WebhookAnswers {
    /** The most bytes of a failure's body read for its note. */
    static final int BODY_HEAD_BYTES = 400;
    private static final int NOTE_BODY = 100;
    private static final long MAX_RETRY_AFTER_MS = 3_600_000;

    private final boolean retryOn4xx;
    private final Clock clock;

    /**
     * What a receiver answered, as far as the outcome needs it.
     *
     * @param status     the HTTP status
     * @param retryAfter its {@code Retry-After} header, or null
     * @param bodyHead   the start of its body (of a failure's; "" for a 2xx)
     */
    record Answer(int status, String retryAfter, String bodyHead) {
    }

    WebhookAnswers(boolean retryOn4xx, Clock clock) {
        this.retryOn4xx = retryOn4xx;
        this.clock = clock;
    }

    Sent of(Answer answer) {
        int status = answer.status();
        if (status >= 200 && status < 300) {
            return Sent.delivered();
        }
        if (status >= 300 && status < 400) {
            return Sent.dead("webhook " + status + " redirects are not followed");
        }
        String body = answer.bodyHead() == null ? "" : oneLine(answer.bodyHead());
        String note = "webhook " + status + (body.isEmpty() ? "" : " " + body);
        if ((status == 429 || status == 503) && answer.retryAfter() != null) {
            Long wait = retryAfterMs(answer.retryAfter());
            if (wait != null) {
                return Sent.retryAfter(note, wait);
            }
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            return retryOn4xx ? Sent.retry(note) : Sent.dead(note);
        }
        return Sent.retry(note);
    }
    /** A {@code Retry-After} in ms from now (delay-seconds or an HTTP date), at most an hour; null when unreadable. */
    Long retryAfterMs(String value) {
        String v = value.trim();
        long ms;
        if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
            ms = v.length() > 7 ? MAX_RETRY_AFTER_MS : Long.parseLong(v) * 1_000;
        } else {
            try {
                ms = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli()
                        - clock.millis();
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return Math.max(0, Math.min(ms, MAX_RETRY_AFTER_MS));
    }

    /** The text's start, on one line: control characters as spaces, runs of spaces as one. */
    static String oneLine(String text) {
        String cut = text.length() <= NOTE_BODY ? text : text.substring(0, NOTE_BODY);
        return cut.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
    }
}
