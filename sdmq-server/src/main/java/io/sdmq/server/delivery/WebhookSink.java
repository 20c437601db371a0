package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sends a topic's messages to one URL, a POST each: the body as pushed, the Standard Webhooks headers (the message id
 * as {@code webhook-id}, the receiver's idempotency key) and sdmq's own ({@code sdmq-topic}, {@code sdmq-attempt},
 * {@code sdmq-due-time}, {@code sdmq-biz-key}). Apache HttpClient's classic (blocking) client on {@code concurrency}
 * threads of the sink's own, with a pool of as many kept-alive connections; it follows no redirect and retries
 * nothing itself. A 2xx delivers; what else the receiver answers is read by {@link WebhookAnswers}.
 */
final class WebhookSink implements Sink {
    private static final int NOTE_LENGTH = 200;
    /** A pooled connection idle this long is checked before it is used again, so a receiver's close is no failure. */
    private static final TimeValue CHECK_IDLE_AFTER = TimeValue.ofSeconds(1);

    private final String topic;
    private final URI url;
    private final WebhookSignature signature;
    private final WebhookAnswers answers;
    private final JsonMapper json;
    private final Clock clock;
    private final ExecutorService senders;
    private final CloseableHttpClient client;

    /** {@code delivery} holds the settings {@link WebhookSinkType#check} answered; {@code url} is checked. */
    WebhookSink(String topic, URI url, Map<String, Object> delivery, JsonMapper json, Clock clock) {
        this.topic = topic;
        this.url = url;
        SendLimits limits = SendLimits.of(delivery);
        this.signature = new WebhookSignature(((List<?>) delivery.get("secrets")).stream().map(String::valueOf)
                .toList());
        this.answers = new WebhookAnswers(Boolean.TRUE.equals(delivery.get("retryOn4xx")), clock);
        this.json = json;
        this.clock = clock;
        // the dispatcher never has more sends under way than these threads and connections
        this.senders = Executors.newFixedThreadPool(limits.concurrency(),
                Daemons.factory("sdmq-webhook-send-" + topic));
        this.client = client(Timeout.of(limits.timeout()), limits.concurrency());
    }

    private static CloseableHttpClient client(Timeout timeout, int connections) {
        return HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(connections).setMaxConnPerRoute(connections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout)
                                .setSocketTimeout(timeout).setValidateAfterInactivity(CHECK_IDLE_AFTER).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(timeout).build())
                .disableRedirectHandling().disableAutomaticRetries().disableCookieManagement()
                .disableAuthCaching().disableContentCompression()
                .build();
    }

    /** A send still under way when the dispatcher ends it at the timeout is aborted, its connection closed. */
    @Override
    public CompletableFuture<Sent> send(Message message) {
        HttpPost request;
        try {
            request = request(message);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Sent.retry(failure(e)));
        }
        CompletableFuture<Sent> outcome = new CompletableFuture<>();
        AtomicBoolean answered = new AtomicBoolean();
        try {
            senders.execute(() -> {
                if (!outcome.isDone()) {
                    Sent sent = send(request);
                    answered.set(true);
                    outcome.complete(sent);
                }
            });
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(Sent.retry("webhook: the sink is closed"));
        }
        outcome.whenComplete((sent, e) -> {
            if (!answered.get()) {
                request.cancel();
            }
        });
        return outcome;
    }

    private Sent send(HttpPost request) {
        try {
            return client.execute(request, response -> answers.of(new WebhookAnswers.Answer(response.getCode(),
                    value(response.getFirstHeader("Retry-After")), bodyHead(response))));
        } catch (IOException | RuntimeException e) {
            return Sent.retry(failure(e));
        }
    }

    /** The start of a failure's body, for its note; none of a 2xx's. The client reads and drops the rest. */
    private static String bodyHead(ClassicHttpResponse response) throws IOException {
        if (response.getCode() / 100 == 2 || response.getEntity() == null) {
            return "";
        }
        try (InputStream in = response.getEntity().getContent()) {
            return new String(in.readNBytes(WebhookAnswers.BODY_HEAD_BYTES), StandardCharsets.UTF_8);
        }
    }

    private static String value(Header header) {
        return header == null ? null : header.getValue();
    }

    private HttpPost request(Message message) {
        byte[] body = message.body().getBytes(StandardCharsets.UTF_8);
        String id = Long.toString(message.id());
        long timestamp = clock.millis() / 1_000;
        HttpPost request = new HttpPost(url);
        request.setHeader("Content-Type", isJson(message.body()) ? "application/json" : "text/plain; charset=utf-8");
        request.setHeader("webhook-id", id);
        request.setHeader("webhook-timestamp", Long.toString(timestamp));
        request.setHeader("webhook-signature", signature.sign(id, timestamp, body));
        request.setHeader("sdmq-topic", message.topic());
        request.setHeader("sdmq-attempt", Integer.toString(message.attempts()));
        request.setHeader("sdmq-due-time", Long.toString(message.dueTime()));
        if (message.bizKey() != null) {
            request.setHeader("sdmq-biz-key", headerValue(message.bizKey()));
        }
        request.setEntity(new ByteArrayEntity(body, null));
        return request;
    }

    /** Whether the body is one JSON value and nothing more. */
    private boolean isJson(String body) {
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (JacksonException e) {
            return false;
        }
    }

    /** The text as is when it is printable ASCII; else each byte of its UTF-8 outside it, and '%', as %XX. */
    static String headerValue(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0x20 && b < 0x7f && b != '%') {
                out.append((char) b);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /**
     * The note of a send that got no answer: {@code webhook: <exception>: <message>}, on one line; the exception named
     * by its nearest JDK class ({@code ConnectException}, {@code SocketTimeoutException}), not the client's own.
     */
    private static String failure(Throwable e) {
        Class<?> kind = e.getClass();
        while (!kind.getName().startsWith("java.")) {
            kind = kind.getSuperclass();
        }
        String note = "webhook: " + kind.getSimpleName()
                + (e.getMessage() == null ? "" : ": " + WebhookAnswers.oneLine(e.getMessage()));
        return note.length() <= NOTE_LENGTH ? note : note.substring(0, NOTE_LENGTH);
    }

    /** Stops the sends under way and closes the connections. */
    @Override
    public void close() {
        senders.shutdownNow();
        client.close(CloseMode.IMMEDIATE);
    }

    @Override
    public String toString() {
        return "WebhookSink[" + topic + " -> " + url + "]";
    }
}
