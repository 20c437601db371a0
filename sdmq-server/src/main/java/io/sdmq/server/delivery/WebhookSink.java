package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Sends a topic's messages to one URL, a POST each: the body as pushed, the Standard Webhooks headers (the message id
 * as {@code webhook-id}, the receiver's idempotency key) and sdmq's own ({@code sdmq-topic}, {@code sdmq-attempt},
 * {@code sdmq-due-time}, {@code sdmq-biz-key}). One JDK HTTP/1.1 client, which keeps its connections alive and
 * follows no redirect. A 2xx delivers; what else the receiver answers is read by {@link WebhookAnswers}.
 */
final class WebhookSink implements Sink {
    private static final int NOTE_LENGTH = 200;

    private final String topic;
    private final URI url;
    private final Duration timeout;
    private final int concurrency;
    private final WebhookSignature signature;
    private final WebhookAnswers answers;
    private final JsonMapper json;
    private final Clock clock;
    private final ExecutorService executor;
    private final ExecutorService senders;
    private final HttpClient client;

    /** {@code delivery} holds the settings {@link WebhookSinkType#check} answered; {@code url} is checked. */
    WebhookSink(String topic, URI url, Map<String, Object> delivery, JsonMapper json, Clock clock) {
        this.topic = topic;
        this.url = url;
        this.timeout = Duration.ofMillis(((Number) delivery.get("timeout")).longValue());
        this.concurrency = ((Number) delivery.get("concurrency")).intValue();
        this.signature = new WebhookSignature(((List<?>) delivery.get("secrets")).stream().map(String::valueOf)
                .toList());
        this.answers = new WebhookAnswers(Boolean.TRUE.equals(delivery.get("retryOn4xx")), clock);
        this.json = json;
        this.clock = clock;
        this.executor = Executors.newCachedThreadPool(Daemons.factory("sdmq-webhook-" + topic));
        // the JDK client's blocking send on threads of the sink's own: W8 delivered 3x the webhooks a second of
        // sendAsync at the same concurrency on JDK 17 (fewer hand-offs between threads per request); the dispatcher
        // never has more sends under way than these threads
        this.senders = Executors.newFixedThreadPool(concurrency, Daemons.factory("sdmq-webhook-send-" + topic));
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).executor(executor).build();
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    /** The outcome comes by {@link #timeout()} at the latest: a send still under way then is interrupted. */
    @Override
    public CompletableFuture<Sent> send(Message message) {
        HttpRequest request;
        try {
            request = request(message);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Sent.retry(failure(e)));
        }
        CompletableFuture<Sent> outcome = new CompletableFuture<>();
        Future<?> sending;
        try {
            sending = senders.submit(() -> outcome.complete(send(request)));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(Sent.retry("webhook: the sink is closed"));
        }
        outcome.completeOnTimeout(Sent.retry("webhook: no answer within " + timeout.toMillis() + " ms"),
                timeout.toMillis(), TimeUnit.MILLISECONDS);
        outcome.whenComplete((sent, e) -> sending.cancel(true));
        return outcome;
    }

    private Sent send(HttpRequest request) {
        try {
            return answers.of(client.send(request, WebhookAnswers.BODY_HEAD));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Sent.retry("webhook: no answer within " + timeout.toMillis() + " ms");
        } catch (IOException | RuntimeException e) {
            return Sent.retry(failure(e));
        }
    }

    private HttpRequest request(Message message) {
        byte[] body = message.body().getBytes(StandardCharsets.UTF_8);
        String id = Long.toString(message.id());
        long timestamp = clock.millis() / 1_000;
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", isJson(message.body()) ? "application/json" : "text/plain; charset=utf-8")
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", signature.sign(id, timestamp, body))
                .header("sdmq-topic", message.topic())
                .header("sdmq-attempt", Integer.toString(message.attempts()))
                .header("sdmq-due-time", Long.toString(message.dueTime()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (message.bizKey() != null) {
            request.header("sdmq-biz-key", headerValue(message.bizKey()));
        }
        return request.build();
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

    /** The note of a send that got no answer: {@code webhook: <exception>: <message>}, on one line. */
    private static String failure(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        String note = "webhook: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + WebhookAnswers.oneLine(cause.getMessage()));
        return note.length() <= NOTE_LENGTH ? note : note.substring(0, NOTE_LENGTH);
    }

    /** Stops the client's threads; a send still under way ends with a note by its timeout. */
    @Override
    public void close() {
        senders.shutdownNow();
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "WebhookSink[" + topic + " -> " + url + "]";
    }
}
