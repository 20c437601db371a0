package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.BucketSet;
import io.sdmq.core.spi.Reservations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static io.sdmq.core.redis.RedisBuckets.GONE_MS;
import static io.sdmq.core.redis.RedisBuckets.flags;
import static io.sdmq.core.redis.RedisBuckets.positive;
import static io.sdmq.core.redis.RedisBuckets.scoreOrNone;
import static io.sdmq.core.redis.RedisBuckets.strings;

/**
 * The ready lists (one per topic) and the reserved zset of each bucket in Redis; every change one Lua script on one
 * bucket's keys (see {@code lua/*.lua}; the retry rule is {@code lua/retry.lua}).
 */
public final class RedisReservations extends RedisBuckets implements Reservations {
    private static final Logger log = LoggerFactory.getLogger(RedisReservations.class);

    private final String defaultRetryDelays;

    /** @param defaultRetryDelays the backoff of a message pushed without retry delays, in ms */
    public RedisReservations(StringRedisTemplate redis, String prefix, int buckets, List<Long> defaultRetryDelays) {
        super(redis, prefix, buckets);
        if (defaultRetryDelays.isEmpty() || defaultRetryDelays.stream().anyMatch(d -> d == null || d < 0)) {
            throw new IllegalArgumentException("default retry delays must be one or more non-negative ms");
        }
        this.defaultRetryDelays = defaultRetryDelays.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    @Override
    public List<Message> pop(int bucket, String topic, int count, long now, long reservedUntil) {
        return popEach(new int[] {bucket}, topic, count, now, reservedUntil).get(0).get();
    }

    /**
     * One script over the buckets' keys (see {@code lua/pop.lua}), a bucket whose keys fail failing alone; on a Redis
     * Cluster, where a script cannot span buckets, bucket by bucket.
     */
    @Override
    public List<Supplier<List<Message>>> popEach(int[] buckets, String topic, int count, long now,
                                                 long reservedUntil) {
        positive(count, "count");
        if (buckets.length > 1 && cluster()) {
            return Reservations.super.popEach(buckets, topic, count, now, reservedUntil);
        }
        List<String> keys = new ArrayList<>(3 * buckets.length);
        for (int bucket : buckets) {
            BucketKeys k = keys(bucket);
            keys.addAll(List.of(k.meta(), k.reserved(), k.ready(topic)));
        }
        List<Object> replies = run(LuaScripts.POP, keys, Long.toString(now), Integer.toString(count),
                Long.toString(reservedUntil));
        List<Supplier<List<Message>>> popped = new ArrayList<>(replies.size());
        for (int i = 0; i < replies.size(); i++) {
            List<String> reply = strings(replies.get(i));
            if (!reply.get(0).isEmpty()) {
                popped.add(BucketSet.failed(new UnavailableException("Redis failed the pop of bucket " + buckets[i]
                        + ": " + reply.get(0), null)));
            } else {
                List<Message> got = decodePairs(reply.subList(1, reply.size()));
                popped.add(() -> got);
            }
        }
        return popped;
    }

    @Override
    public List<Optional<String>> finish(int bucket, List<Long> ids, long now) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return finished(ids, run(LuaScripts.FINISH, finishCall(bucket, ids, now)));
    }

    /** The buckets' finishes in one pipeline (see {@link #runEach}). */
    @Override
    public List<Supplier<List<Optional<String>>>> finishEach(int[] buckets, List<List<Long>> ids, long now) {
        return runEach(LuaScripts.FINISH, buckets.length, i -> finishCall(buckets[i], ids.get(i), now),
                (i, outcomes) -> finished(ids.get(i), outcomes));
    }

    private KeysAndArgs finishCall(int bucket, List<Long> ids, long now) {
        BucketKeys keys = keys(bucket);
        List<String> args = new ArrayList<>(ids.size() + 2);
        args.add(Long.toString(now));
        args.add(Long.toString(GONE_MS));
        ids.forEach(id -> args.add(Long.toString(id)));
        return new KeysAndArgs(List.of(keys.meta(), keys.reserved(), keys.gone()), args);
    }

    private static List<Optional<String>> finished(List<Long> ids, List<Object> outcomes) {
        return onePerInput("finish", outcomes, ids.size()).stream()
                .map(outcome -> outcome instanceof String topic ? Optional.of(topic) : Optional.<String>empty())
                .toList();
    }

    @Override
    public Optional<Nacked> nack(int bucket, long id, long now, Long delayMs, boolean dead) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = run(LuaScripts.NACK, List.of(keys.meta(), keys.delay(), keys.reserved(),
                keys.gone()), Long.toString(id), Long.toString(now), delayMs == null ? "" : Long.toString(delayMs),
                defaultRetryDelays, Long.toString(GONE_MS), dead ? "1" : "0");
        if (reply == null || reply.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = strings(reply);
        return Optional.of(new Nacked("DEAD".equals(parts.get(0)), codec.decode(id, parts.get(1))));
    }

    @Override
    public OptionalLong touch(int bucket, long id, long now) {
        BucketKeys keys = keys(bucket);
        String deadline = run(LuaScripts.TOUCH, List.of(keys.meta(), keys.reserved()), Long.toString(id),
                Long.toString(now));
        return deadline == null || deadline.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(deadline));
    }

    @Override
    public RequeueResult requeueExpired(int bucket, long now, int limit) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = run(LuaScripts.REQUEUE_EXPIRED, List.of(keys.meta(), keys.delay(),
                keys.reserved(), keys.gone()), Long.toString(now), Integer.toString(positive(limit, "limit")),
                defaultRetryDelays, Long.toString(GONE_MS));
        List<String> flat = strings(reply.get(1));
        List<Requeued> requeued = new ArrayList<>(flat.size() / 4);
        for (int i = 0; i < flat.size(); i += 4) {
            requeued.add(new Requeued(Long.parseLong(flat.get(i)), flat.get(i + 1), Integer.parseInt(flat.get(i + 2)),
                    Long.parseLong(flat.get(i + 3))));
        }
        List<Message> dead = decodePairs(strings(reply.get(2)));
        if (!dead.isEmpty()) {
            log.debug("bucket {}: {} messages exhausted their attempts", bucket, dead.size());
        }
        return new RequeueResult(List.copyOf(requeued), dead, scoreOrNone(reply.get(0)));
    }

    @Override
    public long readyCount(int bucket, String topic) {
        String key = keys(bucket).ready(topic);
        Long size = call(redis -> redis.opsForList().size(key));
        return size == null ? 0 : size;
    }

    /**
     * One SCAN over the keys of the bucket's ready lists. On a Redis Cluster it runs on the node that serves the
     * bucket's slot, which holds all of the bucket's keys; a SCAN of the whole cluster is refused there.
     */
    @Override
    public Set<String> readyTopics(int bucket) {
        BucketKeys keys = keys(bucket);
        int start = keys.readyPrefix().length();
        Set<String> topics = new TreeSet<>();
        ScanOptions options = ScanOptions.scanOptions().match(keys.readyPattern()).count(1_000).build();
        call(redis -> redis.execute((RedisCallback<Void>) connection -> {
            try (Cursor<byte[]> cursor = connection instanceof RedisClusterConnection cluster
                    ? cluster.scan(cluster.clusterGetNodeForKey(keys.delay().getBytes(StandardCharsets.UTF_8)), options)
                    : connection.keyCommands().scan(options)) {
                cursor.forEachRemaining(key -> topics.add(new String(key, StandardCharsets.UTF_8).substring(start)));
            }
            return null;
        }));
        return Collections.unmodifiableSet(topics);
    }
}
