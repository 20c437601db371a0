package io.sdmq.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * --topic-settings N: before a delivery run, gives its topic and N − 1 others settings on the server, so that a run
 * measures what topics with settings cost beside one without: defaults on every push, and the rate and in-flight
 * limits (set far above what the run reaches) granted in Redis at every pop. Then waits for every instance's reload.
 */
final class TopicSettings {
    static final String SETTINGS = "{\"ttr\":30000,\"maxAttempts\":8,\"rateLimit\":1000000,\"maxInFlight\":1000000}";
    /** The server reloads the topics' settings every second. */
    private static final Duration RELOAD = Duration.ofMillis(1_500);

    private TopicSettings() {
    }

    static void apply(String url, String topic, int count) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < count; i++) {
            put(http, url, i == 0 ? topic : topic + "-other-" + i, SETTINGS);
        }
        Thread.sleep(RELOAD.toMillis());
    }

    /** Gives one topic these settings (JSON), then waits for every instance's reload. */
    static void apply(String url, String topic, String settings) throws IOException, InterruptedException {
        put(HttpClient.newHttpClient(), url, topic, settings);
        Thread.sleep(RELOAD.toMillis());
    }

    private static void put(HttpClient http, String url, String topic, String settings)
            throws IOException, InterruptedException {
        HttpRequest put = HttpRequest.newBuilder(URI.create(url + "/topics/" + topic))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(settings)).build();
        HttpResponse<String> reply = http.send(put, HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
            throw new IOException("PUT /topics/" + topic + " answered " + reply.statusCode() + ": " + reply.body());
        }
    }
}
