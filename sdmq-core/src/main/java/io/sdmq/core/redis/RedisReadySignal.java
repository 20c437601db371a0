package io.sdmq.core.redis;

import io.sdmq.common.Daemons;
import io.sdmq.core.spi.ReadySignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Ready topics over Redis pub/sub on channel {@code <prefix>:ready}: one message per publish, its lines the
 * sending instance's origin id, the bucket, then the topics. A signal's own messages are not delivered to it.
 * Listeners run on one thread of this signal; the subscription, which blocks a thread with a blocking driver such as
 * Jedis, holds another.
 * <p>
 * While a publish reaches no other instance, publishing stops but for one per probe period (a second), which finds an
 * instance that subscribed since: a single instance then spends no Redis round trip per move on a signal nobody
 * hears. A newcomer's consumers may miss moves made elsewhere until then; its ready sweep finds those. On a Redis
 * Cluster, where PUBLISH counts only the receivers on the node it ran on, a signal cannot tell that it is alone and
 * publishes every time.
 */
public final class RedisReadySignal implements ReadySignal {
    private static final Logger log = LoggerFactory.getLogger(RedisReadySignal.class);

    private final String channel;
    private final byte[] channelBytes;
    private final String origin = UUID.randomUUID().toString();
    private final StringRedisTemplate redis;
    private final ScheduledExecutorService dispatcher;
    private final ExecutorService subscriber;
    private final RedisMessageListenerContainer container;
    private final long probeNanos;
    /** The last publish reached no other instance; until {@link #probeAt} (System.nanoTime), none is sent. */
    private volatile boolean alone;
    private volatile long probeAt;

    public RedisReadySignal(RedisConnectionFactory factory, String prefix) {
        this(factory, prefix, Duration.ofSeconds(1));
    }

    RedisReadySignal(RedisConnectionFactory factory, String prefix, Duration probe) {
        this.probeNanos = probe.toNanos();
        this.channel = prefix + ":ready";
        this.channelBytes = channel.getBytes(StandardCharsets.UTF_8);
        this.redis = new StringRedisTemplate(factory);
        this.dispatcher = Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-ready-signal"));
        this.subscriber = Executors.newSingleThreadExecutor(Daemons.factory("sdmq-ready-subscription"));
        this.container = new RedisMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.setTaskExecutor(dispatcher);
        container.setSubscriptionExecutor(subscriber);
        container.afterPropertiesSet();
        container.start();
    }

    @Override
    public void publish(int bucket, Collection<String> topics) {
        if (topics.isEmpty() || alone && System.nanoTime() - probeAt < 0) {
            return;
        }
        byte[] message = (origin + "\n" + bucket + "\n" + String.join("\n", topics)).getBytes(StandardCharsets.UTF_8);
        Long receivers = redis.execute((RedisCallback<Long>) connection -> {
            Long counted = connection.publish(channelBytes, message);
            // a Redis Cluster counts only the subscribers of the node that ran the PUBLISH
            return connection instanceof RedisClusterConnection ? null : counted;
        });
        // this signal's own subscription, once it is listening, is one of the receivers
        alone = receivers != null && receivers <= (container.isListening() ? 1 : 0);
        if (alone) {
            probeAt = System.nanoTime() + probeNanos;
        }
    }

    @Override
    public void subscribe(Listener listener) {
        container.addMessageListener((message, pattern) -> dispatch(message, listener), new ChannelTopic(channel));
    }

    @Override
    public void close() {
        container.stop();
        try {
            container.destroy();
        } catch (Exception e) {
            log.warn("closing the ready signal on {} failed: {}", channel, e.toString());
        } finally {
            dispatcher.shutdownNow();
            subscriber.shutdownNow();
        }
    }

    private void dispatch(Message message, Listener listener) {
        String[] lines = new String(message.getBody(), StandardCharsets.UTF_8).split("\n");
        if (lines.length < 3 || lines[0].equals(origin)) {
            return;
        }
        int bucket = Integer.parseInt(lines[1]);
        for (int i = 2; i < lines.length; i++) {
            String topic = lines[i];
            try {
                listener.ready(bucket, topic);
            } catch (RuntimeException e) {
                log.warn("a ready listener failed for topic {} on {}", topic, channel, e);
            }
        }
    }
}
