package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.BucketSet;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

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
    private volatile Boolean cluster;

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

    /** Whether Redis is a Cluster, where a script or a pipeline cannot span buckets; asked once. */
    boolean cluster() {
        Boolean known = cluster;
        if (known == null) {
            known = call(template -> template.execute(
                    (RedisCallback<Boolean>) connection -> connection instanceof RedisClusterConnection));
            cluster = known;
        }
        return known;
    }

    BucketKeys keys(int bucket) {
        return new BucketKeys(prefix, Objects.checkIndex(bucket, names.size()));
    }

    <T> T run(RedisScript<T> script, List<String> keys, Object... args) {
        return call(template -> template.execute(script, keys, args));
    }

    /**
     * Runs a script once per call, each on its own bucket's keys, in one round trip (a pipeline of EVALSHA); per call
     * in order, a supplier of what {@code read} makes of the call's reply (given the call's index), which throws that
     * call's failure instead. A call whose script Redis had lost (NOSCRIPT) runs again on its own, which loads it. A
     * single call, and the calls on a Redis Cluster, where a pipeline cannot span nodes, go one by one without a
     * pipeline.
     */
    <T, R> List<Supplier<R>> runEach(RedisScript<T> script, int count, IntFunction<KeysAndArgs> call,
                                     Reply<T, R> read) {
        List<KeysAndArgs> calls = IntStream.range(0, count).mapToObj(call).toList();
        List<Supplier<T>> replies = runEach(script, calls);
        return IntStream.range(0, count).<Supplier<R>>mapToObj(i -> () -> read.of(i, replies.get(i).get())).toList();
    }

    /** What a call over several buckets makes of the reply of the call at an index. */
    @FunctionalInterface
    interface Reply<T, R> {
        R of(int index, T reply);
    }

    private <T> List<Supplier<T>> runEach(RedisScript<T> script, List<KeysAndArgs> calls) {
        List<Object> replies;
        try {
            if (calls.size() == 1 || cluster()) {
                return BucketSet.oneByOne(calls.size(), i -> run(script, calls.get(i)));
            }
            replies = call(template -> template.execute(pipelined(script, calls)));
        } catch (UnavailableException e) {
            return Collections.nCopies(calls.size(), BucketSet.failed(e));
        }
        List<Supplier<T>> results = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            KeysAndArgs c = calls.get(i);
            results.add(isNoScript(replies.get(i)) ? BucketSet.oneByOne(1, unused -> run(script, c)).get(0)
                    : decoded(replies.get(i)));
        }
        return results;
    }

    /** The calls' replies, a failed call's as its exception. */
    private static RedisCallback<List<Object>> pipelined(RedisScript<?> script, List<KeysAndArgs> calls) {
        return connection -> {
            ReturnType type = ReturnType.fromJavaType(script.getResultType());
            connection.openPipeline();
            calls.forEach(c -> connection.scriptingCommands().evalSha(script.getSha1(), type, c.keys().size(),
                    c.raw()));
            try {
                return connection.closePipeline();
            } catch (RedisPipelineException e) {
                return e.getPipelineResult();
            }
        };
    }

    <T> T run(RedisScript<T> script, KeysAndArgs c) {
        return run(script, c.keys(), c.args().toArray());
    }

    /** A bucket's keys and a script's arguments for it. */
    record KeysAndArgs(List<String> keys, List<String> args) {
        byte[][] raw() {
            return Stream.concat(keys.stream(), args.stream()).map(s -> s.getBytes(StandardCharsets.UTF_8))
                    .toArray(byte[][]::new);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Supplier<T> decoded(Object reply) {
        if (reply instanceof Exception e) {
            return BucketSet.failed(new UnavailableException("Redis is unavailable; retry later", e));
        }
        T value = (T) asText(reply);
        return () -> value;
    }

    /** A raw reply as the string serializer gives it: bulk strings as text, in lists too. */
    private static Object asText(Object raw) {
        if (raw instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (raw instanceof List<?> list) {
            return list.stream().map(RedisBuckets::asText).toList();
        }
        return raw;
    }

    private static boolean isNoScript(Object reply) {
        for (Throwable t = reply instanceof Throwable e ? e : null; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
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
