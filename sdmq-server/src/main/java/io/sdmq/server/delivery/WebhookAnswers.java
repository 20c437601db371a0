package io.sdmq.server.delivery;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * What a webhook receiver's answer comes to: a 2xx delivers; 408, 429, 5xx are retried (429 and 503 after their
 * {@code Retry-After}, at most an hour, when they give one); a 3xx is DEAD, since redirects are not followed; any
 * other 4xx is DEAD, or retried with {@code retryOn4xx}. The note is {@code webhook <status> <start of the body>}.
 */
final class WebhookAnswers {
    /** Reads the first bytes of a response body and drops the rest as it comes, keeping the connection usable. */
    static final HttpResponse.BodyHandler<String> BODY_HEAD =
            info -> HttpResponse.BodySubscribers.fromSubscriber(new BodyHead(), BodyHead::text);
    private static final int NOTE_BODY = 100;
    private static final long MAX_RETRY_AFTER_MS = 3_600_000;

    private final boolean retryOn4xx;
    private final Clock clock;

    WebhookAnswers(boolean retryOn4xx, Clock clock) {
        this.retryOn4xx = retryOn4xx;
        this.clock = clock;
    }

    Sent of(HttpResponse<String> response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return Sent.delivered();
        }
        if (status >= 300 && status < 400) {
            return Sent.dead("webhook " + status + " redirects are not followed");
        }
        String body = response.body() == null ? "" : oneLine(response.body());
        String note = "webhook " + status + (body.isEmpty() ? "" : " " + body);
        if (status == 429 || status == 503) {
            Long wait = response.headers().firstValue("Retry-After").map(this::retryAfterMs).orElse(null);
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

    /** Keeps the first bytes of a body, up to enough for a note, and discards the rest as it arrives. */
    private static final class BodyHead implements Flow.Subscriber<List<ByteBuffer>> {
        private final byte[] kept = new byte[NOTE_BODY * 4];
        private int size;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                int n = Math.min(buffer.remaining(), kept.length - size);
                buffer.get(kept, size, n);
                size += n;
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the response's future fails with it
        }

        @Override
        public void onComplete() {
            // text() is read after it
        }

        String text() {
            return new String(kept, 0, size, StandardCharsets.UTF_8);
        }
    }
}
