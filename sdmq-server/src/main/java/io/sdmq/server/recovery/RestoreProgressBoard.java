package io.sdmq.server.recovery;

import io.sdmq.common.UnavailableException;
import io.sdmq.server.instances.InstanceRegistry;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The latest restore's progress in one Redis hash, {@code <prefix>:restore}, written by the instance running it and
 * read by any. Two restores running at once on two instances (harmless, each write being idempotent) take turns in
 * it. A restore shown running whose instance's entry has expired was cut short: it reads as ended, with a failure.
 */
final class RestoreProgressBoard {
    private final StringRedisTemplate redis;
    private final String key;
    private final InstanceRegistry instances;

    RestoreProgressBoard(StringRedisTemplate redis, String keyPrefix, InstanceRegistry instances) {
        this.redis = redis;
        this.key = keyPrefix + ":restore";
        this.instances = instances;
    }

    void publish(RestoreProgress p) {
        Map<String, String> fields = new HashMap<>();
        fields.put("running", Boolean.toString(p.running()));
        fields.put("instance", p.instance());
        fields.put("startedAt", Long.toString(p.startedAt()));
        fields.put("finishedAt", p.finishedAt() == null ? "" : p.finishedAt().toString());
        fields.put("scanned", Long.toString(p.scanned()));
        fields.put("restored", Long.toString(p.restored()));
        fields.put("alreadyPresent", Long.toString(p.alreadyPresent()));
        fields.put("expired", Long.toString(p.expired()));
        fields.put("gone", Long.toString(p.gone()));
        fields.put("failure", p.failure() == null ? "" : p.failure());
        call(() -> {
            redis.opsForHash().putAll(key, fields);
            return null;
        });
    }

    /** The latest restore of the deployment; empty when none ever ran. */
    Optional<RestoreProgress> latest() {
        Map<Object, Object> f = call(() -> redis.opsForHash().entries(key));
        if (f.isEmpty()) {
            return Optional.empty();
        }
        String finishedAt = text(f, "finishedAt");
        String failure = text(f, "failure");
        RestoreProgress p = new RestoreProgress(Boolean.parseBoolean(text(f, "running")), text(f, "instance"),
                number(f, "startedAt"), finishedAt.isEmpty() ? null : Long.parseLong(finishedAt),
                number(f, "scanned"), number(f, "restored"), number(f, "alreadyPresent"), number(f, "expired"),
                number(f, "gone"), failure.isEmpty() ? null : failure);
        return Optional.of(p.running() && !instances.present(p.instance()) ? p.abandoned() : p);
    }

    private static String text(Map<Object, Object> fields, String name) {
        Object value = fields.get(name);
        return value == null ? "" : value.toString();
    }

    private static long number(Map<Object, Object> fields, String name) {
        String value = text(fields, name);
        return value.isEmpty() ? 0 : Long.parseLong(value);
    }

    private static <T> T call(java.util.function.Supplier<T> command) {
        try {
            return command.get();
        } catch (DataAccessException e) {
            throw new UnavailableException("Redis is unavailable; retry later", e);
        }
    }
}
