package io.sdmq.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The machine's raw limits, measured with the same Redis and MariaDB the server uses. Here Redis's: pipelined ZADD
 * per second (one connection, 1 000 commands per flush, on keys of their own under --prefix, deleted afterwards),
 * and the Redis memory floor of the server's layout: bytes per message of a hash entry holding only a 200-byte value
 * plus a zset entry, both keyed by a 19-digit id and spread over 16 keys as the buckets are, which no meta format can
 * go below. MariaDB's are in {@link MariadbLimits}.
 */
final class RawLimits {
    static final int BATCH = 1_000;
    /** The first of the 19-digit ids the measures use. */
    static final long FIRST_ID = 7_339_155_161_346_838_528L;
    private static final int KEYS = 16;

    private RawLimits() {
    }

    static void redisZadd(String redisUrl, String keyPrefix, int count, Map<String, Object> result)
            throws IOException {
        String prefix = keyPrefix + ":raw-" + Long.toString(System.currentTimeMillis(), 36);
        try (Resp redis = new Resp(redisUrl)) {
            long score = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int from = 0; from < count; from += BATCH) {
                int to = Math.min(count, from + BATCH);
                for (int i = from; i < to; i++) {
                    redis.send("ZADD", prefix + ":{" + (i % KEYS) + "}:z", Long.toString(score + i),
                            Long.toString(FIRST_ID + i));
                }
                redis.flush();
                for (int i = from; i < to; i++) {
                    redis.read();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            for (int k = 0; k < KEYS; k++) {
                redis.call("DEL", prefix + ":{" + k + "}:z");
            }
            result.put("redisVersion", info(redis, "redis_version"));
            result.put("zaddCount", count);
            result.put("zaddSeconds", Workloads.round3(seconds));
            result.put("zaddPerSecond", Math.round(count / seconds));
        }
    }

    static void redisLayoutFloor(String redisUrl, String keyPrefix, int count, Map<String, Object> result)
            throws IOException {
        String prefix = keyPrefix + ":floor-" + Long.toString(System.currentTimeMillis(), 36);
        String body = "x".repeat(Workloads.BODY_SIZE);
        try (Resp redis = new Resp(redisUrl)) {
            long score = System.currentTimeMillis();
            for (int from = 0; from < count; from += BATCH) {
                int to = Math.min(count, from + BATCH);
                for (int i = from; i < to; i++) {
                    String id = Long.toString(FIRST_ID + i);
                    redis.send("HSET", prefix + ":{" + (i % KEYS) + "}:h", id, body);
                    redis.send("ZADD", prefix + ":{" + (i % KEYS) + "}:z", Long.toString(score + i), id);
                }
                redis.flush();
                for (int i = from; i < to; i++) {
                    redis.read();
                    redis.read();
                }
            }
            long bytes = 0;
            for (int k = 0; k < KEYS; k++) {
                for (String key : List.of(prefix + ":{" + k + "}:h", prefix + ":{" + k + "}:z")) {
                    bytes += (Long) redis.call("MEMORY", "USAGE", key, "SAMPLES", "0");
                    redis.call("DEL", key);
                }
            }
            result.put("layoutFloorEntries", count);
            result.put("layoutFloorBytesPerMessage", Math.round((double) bytes / count));
        }
    }

    private static String info(Resp redis, String field) throws IOException {
        for (String line : ((String) redis.call("INFO", "server")).split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        return "";
    }
}
