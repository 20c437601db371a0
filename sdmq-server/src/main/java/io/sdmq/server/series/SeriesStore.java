package io.sdmq.server.series;

import io.sdmq.common.UnavailableException;
import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The deliveries of every instance, per topic and minute, in one Redis hash each: {@code <prefix>:series:<topic>:
 * <minute start ms>}, a field per {@link LatenessBuckets lateness bucket} holding its count. Instances add theirs
 * with one script per hash ({@code lua/series_add.lua}: HINCRBY per bucket, then the time to live), so the hashes
 * hold the sums of all instances; each lives {@link #TTL} after its last addition.
 */
final class SeriesStore {
    /** A minute's hash outlives the hour the endpoint shows. */
    static final Duration TTL = Duration.ofMinutes(65);
    private static final RedisScript<Long> ADD = RedisScript.of(script(), Long.class);

    private final StringRedisTemplate redis;
    private final String prefix;

    SeriesStore(StringRedisTemplate redis, String keyPrefix) {
        this.redis = redis;
        this.prefix = keyPrefix + ":series:";
    }

    /** Adds {@code counts} (one per bucket) to the topic's minute. */
    void add(String topic, long minute, long[] counts) {
        List<Object> args = new ArrayList<>();
        args.add(Long.toString(TTL.toMillis()));
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0) {
                args.add(Integer.toString(i));
                args.add(Long.toString(counts[i]));
            }
        }
        call(() -> redis.execute(ADD, List.of(key(topic, minute)), args.toArray()));
    }

    /** The topic's counts in the minute, one per bucket; zeros when it had no delivery or its hash expired. */
    long[] read(String topic, long minute) {
        Map<Object, Object> fields = call(() -> redis.opsForHash().entries(key(topic, minute)));
        long[] counts = new long[LatenessBuckets.COUNT];
        fields.forEach((bucket, count) -> {
            int i = Integer.parseInt(bucket.toString());
            if (i >= 0 && i < counts.length) {
                counts[i] = Long.parseLong(count.toString());
            }
        });
        return counts;
    }

    private String key(String topic, long minute) {
        return prefix + topic + ":" + minute;
    }

    private static <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (DataAccessException e) {
            throw new UnavailableException("Redis is unavailable; retry later", e);
        }
    }

    private static String script() {
        try {
            return new ClassPathResource("lua/series_add.lua").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("lua/series_add.lua is missing from the jar", e);
        }
    }
}
