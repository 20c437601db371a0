package io.sdmq.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The few sdmq HTTP calls the bench makes, over one shared java.net.http client (HTTP/1.1 keep-alive). */
final class SdmqClient {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final JsonMapper json = JsonMapper.builder().build();
    private final String base;

    SdmqClient(String url) {
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** A message as /get returns it. */
    record Delivered(String id, String body, long dueTime) {
    }

    /** POST /push of one message; true when the server answered 200. */
    boolean push(String messageJson) throws IOException, InterruptedException {
        return post("/push", messageJson, CALL_TIMEOUT).statusCode() == 200;
    }

    /** POST /push of one message without waiting; completes with true when the server answered 200. */
    CompletableFuture<Boolean> pushAsync(String messageJson) {
        return http.sendAsync(postRequest("/push", messageJson, CALL_TIMEOUT), HttpResponse.BodyHandlers.ofString())
                .thenApply(reply -> reply.statusCode() == 200);
    }

    /** POST /push/batch; true when the server answered 200 with one id per message. */
    boolean pushBatch(String arrayJson, int messages) throws IOException, InterruptedException {
        HttpResponse<String> reply = post("/push/batch", arrayJson, CALL_TIMEOUT);
        return reply.statusCode() == 200 && data(reply).size() == messages;
    }

    /** GET /get/{topic}: long-polls up to timeoutMs for up to count due messages. */
    List<Delivered> get(String topic, int timeoutMs, int count) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(
                        base + "/get/" + topic + "?timeout=" + timeoutMs + "&count=" + count))
                .timeout(Duration.ofMillis(timeoutMs).plus(CALL_TIMEOUT)).GET().build();
        HttpResponse<String> reply = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
            throw new IOException("/get answered " + reply.statusCode() + ": " + reply.body());
        }
        List<Delivered> messages = new ArrayList<>();
        for (JsonNode m : data(reply)) {
            messages.add(new Delivered(m.path("id").asString(), m.path("body").asString(), m.path("dueTime").asLong()));
        }
        return messages;
    }

    /** POST /finish with a JSON array of ids; completes with how many ids the server did not finish. */
    CompletableFuture<Integer> finish(List<String> ids) {
        StringBuilder body = new StringBuilder(ids.size() * 24).append('[');
        for (String id : ids) {
            body.append(body.length() > 1 ? ",\"" : "\"").append(id).append('"');
        }
        HttpRequest request = postRequest("/finish", body.append(']').toString(), CALL_TIMEOUT);
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(reply -> {
            if (reply.statusCode() != 200) {
                return ids.size();
            }
            int failed = 0;
            for (JsonNode each : data(reply)) {
                failed += each.path("code").asInt() == 200 ? 0 : 1;
            }
            return failed;
        });
    }

    /** POST /reStore?expire=true: the server's counts {scanned, restored, alreadyPresent, expired, gone}. */
    JsonNode restore(Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> reply = post("/reStore?expire=true", "", timeout);
        if (reply.statusCode() != 200) {
            throw new IOException("/reStore answered " + reply.statusCode() + ": " + reply.body());
        }
        return data(reply);
    }

    private HttpResponse<String> post(String path, String body, Duration timeout)
            throws IOException, InterruptedException {
        return http.send(postRequest(path, body, timeout), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest postRequest(String path, String body, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private JsonNode data(HttpResponse<String> reply) {
        return json.readTree(reply.body()).path("data");
    }
}
