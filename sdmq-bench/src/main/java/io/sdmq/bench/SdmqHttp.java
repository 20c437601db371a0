package io.sdmq.bench;

import io.sdmq.bench.Http1Client.Reply;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The few sdmq HTTP calls the bench makes, each a blocking call on the calling thread over {@link Http1Client}'s
 * kept-alive connections. The two calls that must not block the caller run the same blocking call on a thread of
 * their own.
 */
final class SdmqHttp implements Target {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final JsonMapper json = JsonMapper.builder().build();
    private final ExecutorService background = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "bench-call");
        thread.setDaemon(true);
        return thread;
    });
    private final Http1Client http;
    private final String prefix;

    /** The server at url, whose Redis keys begin with prefix. */
    SdmqHttp(String url, String prefix) {
        this.http = new Http1Client(URI.create(url));
        this.prefix = prefix;
    }

    /** The bucket keys; they leave out the worker lease. */
    @Override
    public String redisKeys() {
        return prefix + ":{b*";
    }

    /** POST /push of one message, or /push/batch of several; true when the server answered 200 (with every id). */
    @Override
    public boolean push(String topic, List<Outgoing> messages) throws IOException {
        StringBuilder json = new StringBuilder(messages.size() * (Workloads.BODY_SIZE + 80));
        for (Outgoing m : messages) {
            // topic and body hold no character that needs escaping
            json.append(json.isEmpty() ? "" : ",").append("{\"topic\":\"").append(topic).append("\",\"body\":\"")
                    .append(m.body()).append("\",\"deliverAt\":").append(m.deliverAt()).append('}');
        }
        if (messages.size() == 1) {
            return call("POST", "/push", json.toString(), CALL_TIMEOUT).status() == 200;
        }
        Reply reply = call("POST", "/push/batch", "[" + json + "]", CALL_TIMEOUT);
        return reply.status() == 200 && data(reply).size() == messages.size();
    }

    /** POST /push of one message on a thread of its own; completes with true when the server answered 200. */
    @Override
    public CompletableFuture<Boolean> pushAsync(String topic, Outgoing message) {
        return CompletableFuture.supplyAsync(() -> unchecked(() -> push(topic, List.of(message))), background);
    }

    /** GET /get/{topic}: long-polls up to timeoutMs for up to count due messages. */
    @Override
    public List<Delivered> get(String topic, int timeoutMs, int count) throws IOException {
        Reply reply = call("GET", "/get/" + topic + "?timeout=" + timeoutMs + "&count=" + count, null,
                Duration.ofMillis(timeoutMs).plus(CALL_TIMEOUT));
        if (reply.status() != 200) {
            throw new IOException("/get answered " + reply.status() + ": " + reply.body());
        }
        List<Delivered> messages = new ArrayList<>();
        for (JsonNode m : data(reply)) {
            messages.add(new Delivered(m.path("id").asString(), m.path("body").asString(), m.path("dueTime").asLong()));
        }
        return messages;
    }

    /** POST /finish with a JSON array of ids, without waiting; completes with how many ids were not finished. */
    @Override
    public CompletableFuture<Integer> finish(List<String> ids) {
        StringBuilder body = new StringBuilder(ids.size() * 24).append('[');
        for (String id : ids) {
            body.append(body.length() > 1 ? ",\"" : "\"").append(id).append('"');
        }
        String array = body.append(']').toString();
        return CompletableFuture.supplyAsync(() -> unchecked(() -> {
            Reply reply = call("POST", "/finish", array, CALL_TIMEOUT);
            if (reply.status() != 200) {
                return ids.size();
            }
            int failed = 0;
            for (JsonNode each : data(reply)) {
                failed += each.path("code").asInt() == 200 ? 0 : 1;
            }
            return failed;
        }), background);
    }

    /** POST /reStore?expire=true: the server's counts {scanned, restored, alreadyPresent, expired, gone}. */
    JsonNode restore(Duration timeout) throws IOException {
        Reply reply = call("POST", "/reStore?expire=true", "", timeout);
        if (reply.status() != 200) {
            throw new IOException("/reStore answered " + reply.status() + ": " + reply.body());
        }
        return data(reply);
    }

    /**
     * Waits until the server has committed every queued MySQL write ({@code sdmq.journal.pending} is 0, for at most
     * 2 minutes), so what follows measures a server holding those messages, not one still writing their
     * transitions.
     */
    @Override
    public double settle() throws Exception {
        long start = System.nanoTime();
        while (journalPending() > 0 && System.nanoTime() - start < 120_000_000_000L) {
            Thread.sleep(100);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** The server's {@code sdmq.journal.pending} gauge: MySQL writes queued and not yet committed. */
    private double journalPending() throws IOException {
        return metric("sdmq.journal.pending");
    }

    /** The count of the server's {@code http.server.requests} timer: every request it has answered. */
    @Override
    public long serverCalls() throws IOException {
        return Math.round(metric("http.server.requests"));
    }

    /** The first measurement of a metric at {@code /actuator/metrics/{name}} (a gauge's value, a timer's count). */
    private double metric(String name) throws IOException {
        Reply reply = call("GET", "/actuator/metrics/" + name, null, CALL_TIMEOUT);
        if (reply.status() != 200) {
            throw new IOException("/actuator/metrics/" + name + " answered " + reply.status());
        }
        return json.readTree(reply.body()).path("measurements").path(0).path("value").asDouble();
    }

    private Reply call(String method, String path, String body, Duration timeout) throws IOException {
        return http.call(method, path, body, (int) timeout.toMillis());
    }

    private JsonNode data(Reply reply) {
        return json.readTree(reply.body()).path("data");
    }

    /** A blocking call that may fail with an I/O error. */
    @FunctionalInterface
    private interface Call<T> {
        T run() throws IOException;
    }

    private static <T> T unchecked(Call<T> call) {
        try {
            return call.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
