package io.sdmq.bench;

import io.sdmq.client.FinishOutcome;
import io.sdmq.client.FinishedAndDelivered;
import io.sdmq.client.PushMessage;
import io.sdmq.client.SdmqClient;
import io.sdmq.client.SdmqClientBuilder;
import io.sdmq.client.SdmqClientException;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The sdmq server driven through the Java client ({@code --via client}), as an application would: producers call
 * {@link SdmqClient#push} or {@link SdmqClient#pushAsync}, which the client gathers into {@code /push/batch} calls, and
 * each consumer loops on {@link SdmqClient#finishAndGet}, one call per batch that also finishes the batch before (with
 * a linger of {@code --linger} ms to fill it). What the client does not cover (settling, the restore, Redis keys, the
 * server's call count) goes through {@link SdmqHttp}.
 */
final class ClientTarget implements Target {
    private final SdmqClient client;
    private final SdmqHttp http;
    private final Duration linger;
    /** Per consumer thread: the ids it finished, sent with its next poll, and the future that poll completes. */
    private final ThreadLocal<Finishing> finishing = new ThreadLocal<>();

    /**
     * The client with its defaults, but for the producer's linger, batches in flight and batch size when given (negative: the
     * client's default), so that a run can measure them.
     */
    ClientTarget(String url, String prefix, int lingerMs, int pushLingerMs, int pushInFlight, int pushBatch) {
        SdmqClientBuilder builder = SdmqClient.builder(URI.create(url));
        if (pushBatch > 0) {
            builder.maxBatch(pushBatch);
        }
        if (pushLingerMs >= 0) {
            builder.linger(Duration.ofMillis(pushLingerMs));
        }
        if (pushInFlight > 0) {
            builder.maxInFlightBatches(pushInFlight);
        }
        this.client = builder.build();
        this.http = new SdmqHttp(url, prefix);
        this.linger = Duration.ofMillis(lingerMs);
    }

    private record Finishing(List<String> ids, CompletableFuture<Integer> failed) {
    }

    @Override
    public boolean push(String topic, List<Outgoing> messages) {
        try {
            if (messages.size() == 1) {
                client.push(message(topic, messages.get(0)));
            } else {
                client.pushAll(messages.stream().map(m -> message(topic, m)).toList());
            }
            return true;
        } catch (SdmqClientException e) {
            return false;
        }
    }

    @Override
    public CompletableFuture<Boolean> pushAsync(String topic, Outgoing message) {
        return client.pushAsync(message(topic, message)).handle((id, failure) -> failure == null);
    }

    private static PushMessage message(String topic, Outgoing m) {
        return PushMessage.builder(topic, m.body()).deliverAt(Instant.ofEpochMilli(m.deliverAt())).build();
    }

    /** Polls with the ids this thread finished since its last poll; their outcomes complete that finish's future. */
    @Override
    public List<Delivered> get(String topic, int timeoutMs, int count) throws IOException {
        Finishing previous = finishing.get();
        finishing.remove();
        List<String> ids = previous == null ? List.of() : previous.ids();
        FinishedAndDelivered reply;
        try {
            reply = client.finishAndGet(topic, ids, count, Duration.ofMillis(timeoutMs), linger);
        } catch (SdmqClientException e) {
            if (previous != null) {
                previous.failed().complete(ids.size());
            }
            throw new IOException("finishAndGet failed", e);
        }
        if (previous != null) {
            previous.failed().complete((int) reply.finished().stream().filter(o -> !o.finished()).count());
        }
        List<Delivered> delivered = new ArrayList<>(reply.messages().size());
        reply.messages().forEach(m -> delivered.add(new Delivered(m.id(), m.body(), m.dueTime())));
        return delivered;
    }

    /** Keeps the ids for this thread's next poll; completes when that poll has finished them. */
    @Override
    public CompletableFuture<Integer> finish(List<String> ids) {
        CompletableFuture<Integer> failed = new CompletableFuture<>();
        finishing.set(new Finishing(List.copyOf(ids), failed));
        return failed;
    }

    /** A consumer that stops sends what it has not finished yet on its own; a failed call fails every id. */
    @Override
    public void finishPending() {
        Finishing previous = finishing.get();
        finishing.remove();
        if (previous == null) {
            return;
        }
        try {
            List<FinishOutcome> outcomes = client.finish(previous.ids());
            previous.failed().complete((int) outcomes.stream().filter(o -> !o.finished()).count());
        } catch (SdmqClientException e) {
            previous.failed().complete(previous.ids().size());
        }
    }

    @Override
    public String redisKeys() {
        return http.redisKeys();
    }

    @Override
    public double settle() throws Exception {
        return http.settle();
    }

    @Override
    public long serverCalls() throws IOException {
        return http.serverCalls();
    }

    @Override
    public void close() {
        client.close();
    }
}
