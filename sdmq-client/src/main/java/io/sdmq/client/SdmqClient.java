package io.sdmq.client;

import io.sdmq.client.HttpCalls.Call;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * A client of an sdmq server's HTTP API, safe for any number of threads; build one per server and share it:
 * {@code SdmqClient.builder(URI.create("http://127.0.0.1:8080")).token(producerToken).build()}.
 *
 * <p><b>Pushes are batched.</b> The messages of {@link #push} and {@link #pushAsync}, from every thread, go into a
 * bounded buffer that one sender thread sends as {@code /push/batch} calls (see {@link SdmqClientBuilder} for the
 * batch size, the linger and the buffer). Each message's future completes with its id once the server committed it
 * to MySQL, or with that message's own error: a batch refused because of one bad message is sent again message by
 * message, so the others still get their ids. {@link #pushAll} sends a list at once, as it is.
 *
 * <p><b>Retries.</b> Every call is sent again after a 503 or a connection failure, up to {@code maxRetries} times with
 * exponential backoff and jitter; never after another answer. A push whose first attempt was committed but whose
 * answer was lost is then stored twice when it has no {@code bizKey}; with a {@code bizKey} the retry answers the
 * same id and stores nothing more. Give messages that must not be doubled a {@code bizKey}.
 *
 * <p><b>Errors</b> are unchecked {@link SdmqClientException}s with the HTTP status and the server's message.
 * {@link #close()} sends what was pushed and stops the sender; every call after it fails with
 * {@link SdmqClientException.Closed}.
 */
public final class SdmqClient implements AutoCloseable {
    private final Counters counters = new Counters();
    private final Wire wire = new Wire();
    private final URI baseUri;
    private final HttpCalls http;
    private final PushBatcher batcher;
    private volatile boolean closed;

    SdmqClient(ClientSettings settings) {
        this.baseUri = settings.baseUri();
        this.http = new HttpCalls(settings, wire, counters);
        this.batcher = new PushBatcher(settings, new SendBatch(http, wire, counters));
    }

    /** A builder of a client of the server at {@code baseUri}, e.g. {@code http://127.0.0.1:8080}. */
    public static SdmqClientBuilder builder(URI baseUri) {
        return new SdmqClientBuilder(baseUri);
    }

    /**
     * Pushes {@code message} and waits until it is committed; answers its id (the holder's id for a taken
     * {@code bizKey}). The calling thread sends it itself when nothing is waiting to be sent and no batch is in flight,
     * else it goes in the next batch. Blocks while the buffer is full, or throws {@link SdmqClientException.BufferFull}.
     */
    public String push(PushMessage message) {
        return batcher.push(Objects.requireNonNull(message, "message"));
    }

    /**
     * Puts {@code message} in the next batch; the future completes with its id once it is committed, or fails with
     * its {@link SdmqClientException}. With {@link WhenBufferFull#BLOCK} this call waits while the buffer is full;
     * with FAIL, and after {@link #close()}, it answers a failed future.
     */
    public CompletableFuture<String> pushAsync(PushMessage message) {
        return batcher.add(Objects.requireNonNull(message, "message"));
    }

    /**
     * Sends {@code messages} at once, past the buffer, as {@code /push/batch} calls of at most 1 000 messages of one
     * {@code onDuplicate}, and answers their ids in order. A list of at most 1 000 messages of one policy is one call:
     * all of it is stored or none (a bad message fails it with {@link SdmqClientException.InvalidRequest} naming the
     * message, {@code messages: [3].topic: …}). A longer list is several calls, in order, and a failure stops it:
     * the calls before it were stored.
     */
    public List<String> pushAll(List<PushMessage> messages) {
        checkOpen();
        String[] ids = new String[messages.size()];
        for (OnDuplicate policy : OnDuplicate.values()) {
            List<Integer> at = IntStream.range(0, messages.size())
                    .filter(i -> messages.get(i).onDuplicate() == policy).boxed().toList();
            for (int from = 0; from < at.size(); from += ClientSettings.SERVER_MAX_BATCH) {
                List<Integer> chunk = at.subList(from, Math.min(at.size(), from + ClientSettings.SERVER_MAX_BATCH));
                List<PushMessage> sent = chunk.stream().map(messages::get).toList();
                List<String> answered = Wire.strings(http.call(Call.post("/push/batch", wire.messages(sent))));
                for (int k = 0; k < chunk.size(); k++) {
                    ids[chunk.get(k)] = answered.get(k);
                }
            }
        }
        return List.of(ids);
    }

    /** Cancels a pending or reserved message. 404 unknown, 409 already terminal. */
    public void delete(String id) {
        post(HttpCalls.path("/delete", "jobId", id));
    }

    /** Cancels the message of {@code topic} with {@code bizKey}. 404 unknown, 409 already terminal. */
    public void delete(String topic, String bizKey) {
        post(HttpCalls.path("/delete", "topic", topic, "bizKey", bizKey));
    }

    /** Makes a pending message due {@code delay} from now, keeping its id; answers its new due time, epoch ms. */
    public long reschedule(String id, Duration delay) {
        return post(HttpCalls.path("/reschedule", "jobId", id, "delay", delay.toMillis())).asLong();
    }

    /** Makes a pending message due at {@code deliverAt}, keeping its id; answers its new due time, epoch ms. */
    public long reschedule(String id, Instant deliverAt) {
        return post(HttpCalls.path("/reschedule", "jobId", id, "deliverAt", deliverAt.toEpochMilli())).asLong();
    }

    /**
     * Waits up to {@code timeout} (at most 60 s) for up to {@code count} (1..100) due messages of {@code topic} and
     * reserves them for their TTR; answers an empty list when none came.
     */
    public List<Delivered> get(String topic, int count, Duration timeout) {
        checkOpen();
        String path = HttpCalls.path(topicRoute("/get/", topic), "timeout", timeout.toMillis(), "count", count);
        return Wire.delivered(http.call(new Call("GET", path, null, timeout)));
    }

    /**
     * A consumer's loop in one call per batch: finishes {@code finishIds} (the previous batch's, at most 1 000, may be
     * empty) with one commit, then waits as {@link #get} does, up to {@code linger} more once a first message is
     * ready (the server caps it, 50 ms by default) so that the batch fills. A bad parameter fails the call with
     * {@link SdmqClientException.InvalidRequest} before anything is finished; a bad id fails only its own outcome.
     */
    public FinishedAndDelivered finishAndGet(String topic, List<String> finishIds, int count, Duration timeout,
                                             Duration linger) {
        checkOpen();
        String path = HttpCalls.path(topicRoute("/get/", topic), "timeout", timeout.toMillis(), "count", count,
                "linger", linger.toMillis());
        JsonNode data = http.call(new Call("POST", path, wire.ids(finishIds), timeout.plus(linger)));
        return new FinishedAndDelivered(Wire.finishOutcomes(data.path("finished")),
                Wire.delivered(data.path("messages")));
    }

    /** Acknowledges a reserved message. 404 unknown, 409 not reserved (its TTR passed) or terminal. */
    public void finish(String id) {
        post(HttpCalls.path("/finish", "jobId", id));
    }

    /**
     * Acknowledges reserved messages, 1 000 ids a call, each call one commit; answers each id's outcome in order
     * (a bad id among good ones fails only itself).
     */
    public List<FinishOutcome> finish(List<String> ids) {
        checkOpen();
        List<FinishOutcome> outcomes = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += ClientSettings.SERVER_MAX_BATCH) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + ClientSettings.SERVER_MAX_BATCH));
            outcomes.addAll(Wire.finishOutcomes(http.call(Call.post("/finish", wire.ids(chunk)))));
        }
        return outcomes;
    }

    /** Gives a reserved message back, due after {@code delayOrNull}, or after its policy's next backoff when null. */
    public void nack(String id, Duration delayOrNull) {
        post(HttpCalls.path("/nack", "jobId", id, "delay", delayOrNull == null ? null : delayOrNull.toMillis()));
    }

    /**
     * Gives up on a reserved message: it is DEAD at once, whatever attempts it has left (an admin's {@code /requeue}
     * brings it back). For a message no retry can help, a body that cannot be parsed, say.
     */
    public void nackAsDead(String id) {
        post(HttpCalls.path("/nack", "jobId", id, "dead", true));
    }

    /** Extends a reservation by the message's TTR; answers the new deadline, epoch ms. */
    public long touch(String id) {
        return post(HttpCalls.path("/touch", "jobId", id)).asLong();
    }

    /** The server this client calls, without a trailing slash. */
    public URI baseUri() {
        return baseUri;
    }

    /** What this client has sent so far. */
    public ClientStats stats() {
        return counters.snapshot();
    }

    /**
     * Sends every message pushed before this call and waits until each has its outcome (retries included), then
     * stops the sender thread. Calls made after it fail with {@link SdmqClientException.Closed}. The JDK's
     * {@code HttpClient} cannot be closed on Java 17; its daemon threads end once the client is unreachable.
     */
    @Override
    public void close() {
        closed = true;
        batcher.close();
    }

    private static String topicRoute(String prefix, String topic) {
        return prefix + URLEncoder.encode(topic, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode post(String path) {
        checkOpen();
        return http.call(Call.post(path, null));
    }

    private void checkOpen() {
        if (closed) {
            throw new SdmqClientException.Closed("the client is closed");
        }
    }
}
