package io.sdmq.spring;

import io.sdmq.client.PushMessage;
import io.sdmq.client.SdmqClient;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * What a producer sends, over the shared {@link SdmqClient}: a body as a String, or an object written as JSON with
 * the application's {@link JsonMapper} (Boot's, when the application has one). {@code send} waits until the server
 * committed the message and answers its id; {@code sendAsync} answers at once with the id's future. Both go through
 * the client's batching, so the sends of many threads share {@code /push/batch} calls. For the other fields of a
 * message (bizKey, ttr, retries), build a {@link PushMessage} and {@link #send(PushMessage) send} it.
 */
public class SdmqTemplate {
    private final SdmqClient client;
    private final JsonMapper json;

    public SdmqTemplate(SdmqClient client, JsonMapper json) {
        this.client = Objects.requireNonNull(client, "client");
        this.json = Objects.requireNonNull(json, "json");
    }

    /** Sends {@code body} to {@code topic}, due now; answers its id. */
    public String send(String topic, String body) {
        return send(PushMessage.of(topic, body));
    }

    /** Sends {@code body} to {@code topic}, due {@code delay} from now; answers its id. */
    public String send(String topic, String body, Duration delay) {
        return send(PushMessage.builder(topic, body).delay(delay).build());
    }

    /** Sends {@code message}; answers its id (the holder's id when its bizKey is taken). */
    public String send(PushMessage message) {
        return client.push(message);
    }

    /** Sends {@code body} to {@code topic}, due {@code delay} from now; the future completes with its id. */
    public CompletableFuture<String> sendAsync(String topic, String body, Duration delay) {
        return sendAsync(PushMessage.builder(topic, body).delay(delay).build());
    }

    /** Sends {@code message}; the future completes with its id, or fails with its own error. */
    public CompletableFuture<String> sendAsync(PushMessage message) {
        return client.pushAsync(message);
    }

    /** Sends {@code messages} at once, as {@link SdmqClient#pushAll} does; answers their ids in order. */
    public List<String> sendAll(List<PushMessage> messages) {
        return client.pushAll(messages);
    }

    /** Sends {@code payload} written as JSON to {@code topic}, due {@code delay} from now; answers its id. */
    public String convertAndSend(String topic, Object payload, Duration delay) {
        return send(topic, json.writeValueAsString(payload), delay);
    }

    /** The client underneath, for the calls this template does not wrap (delete, reschedule). */
    public SdmqClient client() {
        return client;
    }
}
