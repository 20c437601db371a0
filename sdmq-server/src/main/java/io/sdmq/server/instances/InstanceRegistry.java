package io.sdmq.server.instances;

import io.sdmq.common.UnavailableException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Every instance's entry in Redis: a hash {@code <prefix>:instance:<name>} that expires three refresh periods after
 * its instance last wrote it, and the names in a sorted set {@code <prefix>:instances} scored by when each last
 * wrote. Reading walks that set, so it needs no {@code SCAN} (which on a Redis Cluster sees one node only), and
 * drops the names whose hash has expired. Redis's own clock decides what is fresh, so the hosts' clocks may differ.
 */
public final class InstanceRegistry {
    private final StringRedisTemplate redis;
    private final String index;
    private final String entryPrefix;
    private final Duration refresh;
    private final Duration ttl;

    InstanceRegistry(StringRedisTemplate redis, String keyPrefix, InstancesProperties properties) {
        this.redis = redis;
        this.index = keyPrefix + ":instances";
        this.entryPrefix = keyPrefix + ":instance:";
        this.refresh = properties.refresh();
        this.ttl = properties.ttl();
    }

    /** Writes (or refreshes) an instance's entry and its time to live. */
    void write(InstanceEntry entry) {
        String key = entryPrefix + entry.instance();
        call(() -> {
            redis.opsForHash().putAll(key, fields(entry, refresh.toMillis()));
            redis.expire(key, ttl);
            return redis.opsForZSet().add(index, entry.instance(), entry.lastSeen());
        });
    }

    /** Removes an instance's entry at once, as a graceful stop does. */
    void remove(String instance) {
        call(() -> {
            redis.delete(entryPrefix + instance);
            return redis.opsForZSet().remove(index, instance);
        });
    }

    /** Every instance whose entry has not expired, by name. */
    public List<InstanceEntry> list() {
        return call(() -> {
            Set<String> names = redis.opsForZSet().range(index, 0, -1);
            List<InstanceEntry> entries = new ArrayList<>();
            List<String> expired = new ArrayList<>();
            for (String name : names == null ? Set.<String>of() : names) {
                Map<Object, Object> fields = redis.opsForHash().entries(entryPrefix + name);
                Long left = redis.getExpire(entryPrefix + name, TimeUnit.MILLISECONDS);
                if (fields.isEmpty()) {
                    expired.add(name);
                } else if (left != null && left >= 0) { // without a time to live, its first write is under way
                    entries.add(entry(name, fields, up(fields, left)));
                }
            }
            if (!expired.isEmpty()) {
                redis.opsForZSet().remove(index, expired.toArray());
            }
            entries.sort(Comparator.comparing(InstanceEntry::instance));
            return entries;
        });
    }

    /** True while the instance's entry has not expired: it wrote it within the last three refresh periods. */
    public boolean present(String instance) {
        return call(() -> Boolean.TRUE.equals(redis.hasKey(entryPrefix + instance)));
    }

    /** The entry's fields, and the writer's refresh period, by which a reader judges whether it is up. */
    private static Map<String, String> fields(InstanceEntry e, long refreshMs) {
        return Map.of("refreshMs", Long.toString(refreshMs), "host", e.host(),
                "startedAt", Long.toString(e.startedAt()), "lastSeen", Long.toString(e.lastSeen()),
                "schedulerLagMs", Long.toString(e.schedulerLagMs()),
                "statusLogPending", Long.toString(e.statusLogPending()),
                "pushTopics", Integer.toString(e.pushTopics()), "version", e.version());
    }

    /** Up while the entry has more than one of its writer's refresh periods to live: it missed at most one write. */
    private boolean up(Map<Object, Object> fields, long msToLive) {
        long writers = number(fields, "refreshMs");
        return msToLive > (writers > 0 ? writers : refresh.toMillis());
    }

    private static InstanceEntry entry(String name, Map<Object, Object> f, boolean up) {
        return new InstanceEntry(name, text(f, "host"), number(f, "startedAt"), number(f, "lastSeen"), up,
                number(f, "schedulerLagMs"), number(f, "statusLogPending"), (int) number(f, "pushTopics"),
                text(f, "version"));
    }

    private static String text(Map<Object, Object> fields, String name) {
        Object value = fields.get(name);
        return value == null ? "" : value.toString();
    }

    private static long number(Map<Object, Object> fields, String name) {
        try {
            return Long.parseLong(text(fields, name));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (DataAccessException e) {
            throw new UnavailableException("Redis is unavailable; retry later", e);
        }
    }
}
