package io.sdmq.client;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

/**
 * Sends the calls of the HTTP API over the JDK's {@link HttpClient} and reads the envelope
 * {@code {"success","code","message","data"}} of their answers. A call that gets a 503 or no answer is sent again
 * after a {@link Backoff}, at most {@code maxRetries} times; any other answer is final. The calling thread waits
 * for each answer (the JDK's blocking {@code send}, one hand-off fewer than {@code sendAsync}) and sleeps between
 * attempts.
 */
final class HttpCalls {
    private final ClientSettings settings;
    private final HttpClient http;
    private final Wire wire;
    private final Backoff backoff;
    private final Counters counters;

    HttpCalls(ClientSettings settings, Wire wire, Counters counters) {
        this.settings = settings;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout()).build();
        this.wire = wire;
        this.backoff = new Backoff(settings.retryBackoff(), settings.maxRetryBackoff(), new Random());
        this.counters = counters;
    }

    /**
     * A request: {@code path} holds its query, already encoded (see {@link #path}); {@code body} is JSON or null;
     * {@code longPoll} is how long the server may hold it on purpose (a long poll), on top of the request timeout.
     */
    record Call(String method, String path, JsonNode body, Duration longPoll) {
        static Call post(String path, JsonNode body) {
            return new Call("POST", path, body, Duration.ZERO);
        }

        /** The method and the route, for messages: {@code POST /push}. */
        String name() {
            int query = path.indexOf('?');
            return method + " " + (query < 0 ? path : path.substring(0, query));
        }
    }

    /** {@code route} with a query of the given name and value pairs, leaving out the null values. */
    static String path(String route, Object... params) {
        StringBuilder path = new StringBuilder(route);
        for (int i = 0; i < params.length; i += 2) {
            if (params[i + 1] != null) {
                path.append(path.indexOf("?") < 0 ? '?' : '&').append(params[i]).append('=')
                        .append(URLEncoder.encode(params[i + 1].toString(), StandardCharsets.UTF_8));
            }
        }
        return path.toString();
    }

    /**
     * Sends {@code call} and answers the answer's {@code data}, or throws its {@link SdmqClientException}. The calling
     * thread waits for the answer, and sleeps through the backoff before a retry.
     */
    JsonNode call(Call call) {
        HttpRequest request = request(call);
        for (int retry = 0; ; retry++) {
            counters.request(retry > 0);
            Answer answer = attempt(call, request, retry);
            if (answer.error() == null) {
                return answer.data();
            }
            SdmqClientException error = answer.error();
            if (retry >= settings.maxRetries() || !worthRetrying(error)) {
                throw error;
            }
            try {
                Thread.sleep(backoff.before(retry + 1).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw error;
            }
        }
    }

    private HttpRequest request(Call call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.baseUri() + call.path()))
                .timeout(settings.requestTimeout().plus(call.longPoll()))
                .header("Accept", "application/json");
        if (settings.token() != null) {
            request.header("Authorization", "Bearer " + settings.token());
        }
        if (call.body() == null) {
            return request.method(call.method(), BodyPublishers.noBody()).build();
        }
        return request.header("Content-Type", "application/json")
                .method(call.method(), BodyPublishers.ofString(wire.write(call.body()))).build();
    }

    /** What one attempt got: the answer's data, or why it failed. */
    private record Answer(JsonNode data, SdmqClientException error) {
    }

    private Answer attempt(Call call, HttpRequest request, int retry) {
        HttpResponse<String> response;
        try {
            response = http.send(request, BodyHandlers.ofString());
        } catch (IOException e) {
            return new Answer(null, new SdmqClientException.ConnectionFailed(call.name() + " got no answer from "
                    + settings.baseUri() + " in " + (retry + 1) + " attempt(s): " + e, e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SdmqClientException.ConnectionFailed(call.name() + " was interrupted before its answer came; "
                    + "the server may have done it", e);
        }
        JsonNode envelope = wire.envelope(response.body());
        if (response.statusCode() == 200 && envelope != null && envelope.path("success").asBoolean()) {
            return new Answer(envelope.path("data"), null);
        }
        String message = envelope != null ? Wire.text(envelope.path("message")) : abbreviated(response.body());
        return new Answer(null, SdmqClientException.answered(call.name(), response.statusCode(), message));
    }

    /** A 503 (MySQL or Redis unavailable, the server's commit queue full) or no answer at all. */
    static boolean worthRetrying(SdmqClientException error) {
        return error instanceof SdmqClientException.ConnectionFailed || error.status() == 503;
    }

    private static String abbreviated(String body) {
        String text = body == null ? "" : body.strip();
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
