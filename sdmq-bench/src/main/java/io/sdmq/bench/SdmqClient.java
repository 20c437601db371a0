package io.sdmq.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The few sdmq HTTP calls the bench makes, over the JDK's blocking {@link HttpURLConnection} with keep-alive.
 * The asynchronous java.net.http client cost the load generator about 1.5 ms of CPU per message, as much as half
 * the server's, on the cores the two share; a blocking call on the calling thread costs a fraction of it. The two
 * calls that must not block the caller run the same blocking call on a thread of their own.
 */
final class SdmqClient {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    static {
        // idle keep-alive connections kept per server; the JDK's default of 5 would make every producer beyond the
        // fifth open a new connection per request
        System.setProperty("http.maxConnections", "1024");
    }

    private final JsonMapper json = JsonMapper.builder().build();
    private final ExecutorService background = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "bench-call");
        thread.setDaemon(true);
        return thread;
    });
    private final String base;

    SdmqClient(String url) {
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** A message as /get returns it. */
    record Delivered(String id, String body, long dueTime) {
    }

    /** A reply: its status code and its body. */
    private record Reply(int status, String body) {
    }

    /** POST /push of one message; true when the server answered 200. */
    boolean push(String messageJson) throws IOException {
        return call("POST", "/push", messageJson, CALL_TIMEOUT).status() == 200;
    }

    /** POST /push of one message without waiting; completes with true when the server answered 200. */
    CompletableFuture<Boolean> pushAsync(String messageJson) {
        return CompletableFuture.supplyAsync(() -> unchecked(() -> push(messageJson)), background);
    }

    /** POST /push/batch; true when the server answered 200 with one id per message. */
    boolean pushBatch(String arrayJson, int messages) throws IOException {
        Reply reply = call("POST", "/push/batch", arrayJson, CALL_TIMEOUT);
        return reply.status() == 200 && data(reply).size() == messages;
    }

    /** GET /get/{topic}: long-polls up to timeoutMs for up to count due messages. */
    List<Delivered> get(String topic, int timeoutMs, int count) throws IOException {
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
    CompletableFuture<Integer> finish(List<String> ids) {
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

    /** The server's {@code sdmq.journal.pending} gauge: MySQL writes queued and not yet committed. */
    double journalPending() throws IOException {
        Reply reply = call("GET", "/actuator/metrics/sdmq.journal.pending", null, CALL_TIMEOUT);
        if (reply.status() != 200) {
            throw new IOException("/actuator/metrics/sdmq.journal.pending answered " + reply.status());
        }
        return json.readTree(reply.body()).path("measurements").path(0).path("value").asDouble();
    }

    /** One request; the reply is read to its end, so the connection goes back to the keep-alive cache. */
    private Reply call(String method, String path, String body, Duration timeout) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(5_000);
        connection.setReadTimeout((int) timeout.toMillis());
        if (body != null) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(bytes.length);
            connection.setRequestProperty("Content-Type", "application/json");
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
        }
        int status = connection.getResponseCode();
        try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
            return new Reply(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
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
