package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.BucketSet;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * What the Redis adapters share: the buckets' keys and names, the meta codec, and one way to call Redis that turns
 * its failures into sdmq's {@link UnavailableException}.
 */
abstract class RedisBuckets implements BucketSet {
    /** How long the id of a finished, deleted or dead message is remembered, so a racing restore skips it. */
    static final long GONE_MS = 5 * 60_000L;

    final MetaCodec codec = new MetaCodec();
    private final StringRedisTemplate redis;
    private final String prefix;
    /** Every transition names its bucket, and a burst's are queued by the hundred thousand: one string each. */
    private final List<String> names;

    RedisBuckets(StringRedisTemplate redis, String prefix, int buckets) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, was " + buckets);
        }
        this.names = IntStream.range(0, buckets).mapToObj(b -> new BucketKeys(prefix, b).delay()).toList();
    }

    @Override
    public int buckets() {
        return names.size();
    }

    @Override
    public String bucketName(int bucket) {
        return names.get(bucket);
    }

    BucketKeys keys(int bucket) {
        return new BucketKeys(prefix, Objects.checkIndex(bucket, names.size()));
    }

    <T> T run(RedisScript<T> script, List<String> keys, Object... args) {
        return call(template -> template.execute(script, keys, args));
    }

    /** Runs one Redis call; a failure to reach or use Redis answers as {@link UnavailableException}. */
    <T> T call(Function<StringRedisTemplate, T> call) {
        try {
            return call.apply(redis);
        } catch (DataAccessException e) {
            throw new UnavailableException("Redis is unavailable; retry later", e);
        }
    }

    /** Messages from a script's flat list of id, meta JSON, id, meta JSON, … */
    List<Message> decodePairs(List<String> flat) {
        List<Message> messages = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i < flat.size(); i += 2) {
            messages.add(codec.decode(Long.parseLong(flat.get(i)), flat.get(i + 1)));
        }
        return messages;
    }

    /** A batch script's reply: one outcome per input, in order, or a bug. */
    static List<Object> onePerInput(String script, List<Object> outcomes, int inputs) {
        if (outcomes == null || outcomes.size() != inputs) {
            throw new IllegalStateException(script + " answered " + outcomes + " for " + inputs
                    + " inputs; this is a bug");
        }
        return outcomes;
    }

    static List<Boolean> flags(String script, List<Object> outcomes, int inputs) {
        return onePerInput(script, outcomes, inputs).stream().map(outcome -> Long.valueOf(1).equals(outcome)).toList();
    }

    static int positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return value;
    }

    static long scoreOrNone(Object score) {
        String text = (String) score;
        return text == null || text.isEmpty() ? NONE : Long.parseLong(text);
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Object reply) {
        return (List<String>) reply;
    }
}
