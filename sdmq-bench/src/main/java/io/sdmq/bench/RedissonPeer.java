package io.sdmq.bench;

import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Redisson's RDelayedQueue on the same Redis, as a service would use it: a producer offers a message with its delay,
 * the delayed queue's own task moves due messages to a blocking queue, and consumers poll that queue. Redisson's
 * defaults but for the string codec (the cheapest it has) and longer timeouts. Redis only: nothing reaches a
 * database, and a taken message needs no acknowledgement (nor gets a redelivery).
 */
final class RedissonPeer implements Target {
    private final RedissonClient redisson;
    private final String prefix;
    private final Map<String, RBlockingQueue<String>> queues = new ConcurrentHashMap<>();
    private final Map<String, RDelayedQueue<String>> delayed = new ConcurrentHashMap<>();

    RedissonPeer(String redisUrl, String prefix) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        // Redisson's delayed queue subscribes to a channel when it is made; its 7.5 s default for that subscription
        // ran out on a loaded 2-core CI host, so a slow host gets longer rather than a failed run.
        config.useSingleServer().setAddress(redisUrl).setSubscriptionTimeout(30_000).setTimeout(10_000);
        this.redisson = Redisson.create(config);
        this.prefix = prefix;
    }

    private RBlockingQueue<String> queue(String topic) {
        return queues.computeIfAbsent(topic, t -> redisson.getBlockingQueue(prefix + ":" + t));
    }

    /** One delayed queue per topic: each instance runs its own task that moves due messages. */
    @SuppressWarnings("deprecation") // RDelayedQueue is what the issue measured; its successor is Redisson PRO's
    private RDelayedQueue<String> delayed(String topic) {
        return delayed.computeIfAbsent(topic, t -> redisson.getDelayedQueue(queue(t)));
    }

    /** One offer, or a batch's offers all sent before the first reply is awaited (Redisson pipelines them). */
    @Override
    public boolean push(String topic, List<Outgoing> messages) {
        if (messages.size() == 1) {
            delayed(topic).offer(messages.get(0).body(), delay(messages.get(0)), TimeUnit.MILLISECONDS);
            return true;
        }
        List<CompletableFuture<Boolean>> offers = messages.stream().map(m -> pushAsync(topic, m)).toList();
        return offers.stream().allMatch(CompletableFuture::join);
    }

    @Override
    public CompletableFuture<Boolean> pushAsync(String topic, Outgoing message) {
        return delayed(topic).offerAsync(message.body(), delay(message), TimeUnit.MILLISECONDS).toCompletableFuture()
                .handle((done, failure) -> failure == null);
    }

    /** Redisson adds the delay to its own clock when it sends the offer, so the message is never due early. */
    private static long delay(Outgoing message) {
        return Math.max(0, message.deliverAt() - System.currentTimeMillis());
    }

    /** The queues and Redisson's delayed-queue keys, which wrap a queue's name: "redisson_delay_queue:{name}". */
    @Override
    public String redisKeys() {
        return "*" + prefix + ":*";
    }

    @Override
    public List<Delivered> get(String topic, int timeoutMs, int count) throws IOException {
        return Peers.take(queue(topic), timeoutMs, count);
    }

    @Override
    public void close() {
        delayed.values().forEach(queue -> {
            queue.delete();
            queue.destroy();
        });
        queues.values().forEach(RBlockingQueue::delete);
        redisson.shutdown();
    }
}
