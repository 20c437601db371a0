package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The schedule in Redis: per bucket a meta hash, a delay zset, a reserved zset, one ready list per topic and a cold
 * zset (the ids of messages due beyond the hot window, whose bodies wait in MySQL), every change one Lua script on
 * one bucket's keys (see {@code lua/*.lua} for each script's contract).
 */
public final class RedisScheduleStore implements ScheduleStore {
    private static final Logger log = LoggerFactory.getLogger(RedisScheduleStore.class);

    private final StringRedisTemplate redis;
    private final String prefix;
    private final int buckets;
    private final String defaultRetryDelays;
    /** Every transition names its bucket, and a burst's are queued by the hundred thousand: one string each. */
    private final List<String> bucketNames;
    private final MetaCodec codec = new MetaCodec();

    public RedisScheduleStore(StringRedisTemplate redis, String prefix, int buckets, List<Long> defaultRetryDelays) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, was " + buckets);
        }
        if (defaultRetryDelays.isEmpty() || defaultRetryDelays.stream().anyMatch(d -> d == null || d < 0)) {
            throw new IllegalArgumentException("default retry delays must be one or more non-negative ms");
        }
        this.buckets = buckets;
        this.bucketNames = IntStream.range(0, buckets).mapToObj(b -> keys(b).delay()).toList();
        this.defaultRetryDelays = defaultRetryDelays.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    @Override
    public int buckets() {
        return buckets;
    }

    @Override
    public String bucketName(int bucket) {
        return bucketNames.get(bucket);
    }

    @Override
    public boolean push(int bucket, List<Message> messages, long coldFrom) {
        if (messages.isEmpty()) {
            return false;
        }
        Long head = redis.execute(LuaScripts.PUSH, keys(bucket).metaDelayCold(),
                entries(atOwnScore(messages), coldFrom));
        return Long.valueOf(1).equals(head);
    }

    @Override
    public ColdIds coldUntil(int bucket, long until, int limit) {
        Set<TypedTuple<String>> first = redis.opsForZSet().rangeWithScores(keys(bucket).cold(), 0,
                positive(limit, "limit"));
        List<Long> ids = new ArrayList<>();
        long next = NONE;
        for (TypedTuple<String> entry : first == null ? Set.<TypedTuple<String>>of() : first) {
            long score = entry.getScore().longValue();
            if (score > until || ids.size() == limit) {
                next = score;
                break;
            }
            ids.add(Long.parseLong(entry.getValue()));
        }
        return new ColdIds(List.copyOf(ids), next);
    }

    @Override
    public List<Boolean> warm(int bucket, List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        List<Object> outcomes = redis.execute(LuaScripts.WARM, keys(bucket).metaDelayCold(),
                entries(atOwnScore(messages), NONE));
        return onePerInput("warm", outcomes, messages.size()).stream().map(outcome -> Long.valueOf(1).equals(outcome))
                .toList();
    }

    @Override
    public MoveResult moveDue(int bucket, long now, int limit) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = redis.execute(LuaScripts.MOVE_DUE, keys.metaAndDelay(), Long.toString(now),
                Integer.toString(positive(limit, "limit")), keys.readyPrefix());
        List<String> flat = strings(reply.get(1));
        List<Moved> moved = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i < flat.size(); i += 2) {
            moved.add(new Moved(Long.parseLong(flat.get(i)), flat.get(i + 1)));
        }
        log.debug("bucket {}: moved {} due messages, next score {}", bucket, moved.size(), reply.get(0));
        return new MoveResult(List.copyOf(moved), scoreOrNone(reply.get(0)));
    }

    @Override
    public List<Message> pop(int bucket, String topic, int count, long now) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = redis.execute(LuaScripts.POP, List.of(keys.meta(), keys.reserved(), keys.ready(topic)),
                Long.toString(now), Integer.toString(positive(count, "count")));
        return decodePairs(strings(reply));
    }

    @Override
    public List<Boolean> finish(int bucket, List<Long> ids, long now) {
        if (ids.isEmpty()) {
            return List.of();
        }
        BucketKeys keys = keys(bucket);
        List<String> args = new ArrayList<>(ids.size() + 2);
        args.add(Long.toString(now));
        args.add(Long.toString(GONE_MS));
        ids.forEach(id -> args.add(Long.toString(id)));
        List<Object> outcomes = redis.execute(LuaScripts.FINISH, List.of(keys.meta(), keys.reserved(), keys.gone()),
                args.toArray());
        return onePerInput("finish", outcomes, ids.size()).stream().map(outcome -> Long.valueOf(1).equals(outcome))
                .toList();
    }

    @Override
    public Optional<MessageStatus> delete(int bucket, long id, long now) {
        BucketKeys keys = keys(bucket);
        String status = redis.execute(LuaScripts.DELETE, List.of(keys.meta(), keys.delay(), keys.reserved(),
                keys.gone(), keys.cold()), Long.toString(id), Long.toString(now), Long.toString(GONE_MS));
        return status == null || status.isEmpty() ? Optional.empty() : Optional.of(MessageStatus.valueOf(status));
    }

    @Override
    public List<Restored> restore(int bucket, List<Restoring> messages, long coldFrom) {
        if (messages.isEmpty()) {
            return List.of();
        }
        BucketKeys keys = keys(bucket);
        List<Object> outcomes = redis.execute(LuaScripts.RESTORE, List.of(keys.meta(), keys.delay(), keys.gone(),
                keys.cold()), entries(messages, coldFrom));
        return onePerInput("restore", outcomes, messages.size()).stream().map(RedisScheduleStore::restored).toList();
    }

    /**
     * The ARGV of push.lua, warm.lua and restore.lua: id, meta JSON and score, once per message; the meta is empty
     * for a cold one (score at or after {@code coldFrom}).
     */
    private Object[] entries(List<Restoring> messages, long coldFrom) {
        List<String> args = new ArrayList<>(messages.size() * 3);
        for (Restoring restoring : messages) {
            args.add(Long.toString(restoring.message().id()));
            args.add(restoring.score() >= coldFrom ? "" : codec.encode(restoring.message()));
            args.add(Long.toString(restoring.score()));
        }
        return args.toArray();
    }

    private static List<Restoring> atOwnScore(List<Message> messages) {
        return messages.stream().map(m -> new Restoring(m, m.score())).toList();
    }

    /** A batch script's reply: one outcome per input, in order, or a bug. */
    private static List<Object> onePerInput(String script, List<Object> outcomes, int inputs) {
        if (outcomes == null || outcomes.size() != inputs) {
            throw new IllegalStateException(script + " answered " + outcomes + " for " + inputs
                    + " inputs; this is a bug");
        }
        return outcomes;
    }

    private static Restored restored(Object outcome) {
        return switch (outcome instanceof Long code ? code.intValue() : -1) {
            case 1 -> Restored.WRITTEN;
            case 0 -> Restored.PRESENT;
            case 2 -> Restored.GONE;
            default -> throw new IllegalStateException("restore answered " + outcome + "; this is a bug");
        };
    }

    @Override
    public Optional<Nacked> nack(int bucket, long id, long now, Long delayMs) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = redis.execute(LuaScripts.NACK, List.of(keys.meta(), keys.delay(), keys.reserved(),
                keys.gone()), Long.toString(id), Long.toString(now), delayMs == null ? "" : Long.toString(delayMs),
                defaultRetryDelays, Long.toString(GONE_MS));
        if (reply == null || reply.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = strings(reply);
        return Optional.of(new Nacked("DEAD".equals(parts.get(0)), codec.decode(id, parts.get(1))));
    }

    @Override
    public OptionalLong touch(int bucket, long id, long now) {
        BucketKeys keys = keys(bucket);
        String deadline = redis.execute(LuaScripts.TOUCH, List.of(keys.meta(), keys.reserved()), Long.toString(id),
                Long.toString(now));
        return deadline == null || deadline.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(deadline));
    }

    @Override
    public Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body) {
        BucketKeys keys = keys(bucket);
        String status = redis.execute(LuaScripts.RESCHEDULE, List.of(keys.meta(), keys.delay(), keys.reserved()),
                Long.toString(id), Long.toString(dueTime), body == null ? "0" : "1", body == null ? "" : body);
        return status == null || status.isEmpty() ? Optional.empty() : Optional.of(MessageStatus.valueOf(status));
    }

    @Override
    public boolean holds(int bucket, long id) {
        BucketKeys keys = keys(bucket);
        // cold first: warming moves an id from cold to the meta hash, so a warm between the two looks is still seen
        return redis.opsForZSet().score(keys.cold(), Long.toString(id)) != null
                || redis.opsForHash().hasKey(keys.meta(), Long.toString(id));
    }

    @Override
    public boolean isEmpty(int bucket) {
        BucketKeys keys = keys(bucket);
        return redis.countExistingKeys(List.of(keys.meta(), keys.delay(), keys.reserved(), keys.cold())) == 0;
    }

    @Override
    public RequeueResult requeueExpired(int bucket, long now, int limit) {
        BucketKeys keys = keys(bucket);
        List<Object> reply = redis.execute(LuaScripts.REQUEUE_EXPIRED, List.of(keys.meta(), keys.delay(),
                keys.reserved(), keys.gone()), Long.toString(now), Integer.toString(positive(limit, "limit")),
                defaultRetryDelays, Long.toString(GONE_MS));
        List<String> flat = strings(reply.get(1));
        List<Requeued> requeued = new ArrayList<>(flat.size() / 3);
        for (int i = 0; i < flat.size(); i += 3) {
            requeued.add(new Requeued(Long.parseLong(flat.get(i)), Integer.parseInt(flat.get(i + 1)),
                    Long.parseLong(flat.get(i + 2))));
        }
        List<Message> dead = decodePairs(strings(reply.get(2)));
        if (!dead.isEmpty()) {
            log.debug("bucket {}: {} messages exhausted their attempts", bucket, dead.size());
        }
        return new RequeueResult(List.copyOf(requeued), dead, scoreOrNone(reply.get(0)));
    }

    /** Messages from a script's flat list of id, meta JSON, id, meta JSON, … */
    private List<Message> decodePairs(List<String> flat) {
        List<Message> messages = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i < flat.size(); i += 2) {
            messages.add(codec.decode(Long.parseLong(flat.get(i)), flat.get(i + 1)));
        }
        return messages;
    }

    @Override
    public long readyCount(int bucket, String topic) {
        Long size = redis.opsForList().size(keys(bucket).ready(topic));
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
        redis.execute((RedisCallback<Void>) connection -> {
            try (Cursor<byte[]> cursor = connection instanceof RedisClusterConnection cluster
                    ? cluster.scan(cluster.clusterGetNodeForKey(keys.delay().getBytes(StandardCharsets.UTF_8)), options)
                    : connection.keyCommands().scan(options)) {
                cursor.forEachRemaining(key -> topics.add(new String(key, StandardCharsets.UTF_8).substring(start)));
            }
            return null;
        });
        return Collections.unmodifiableSet(topics);
    }

    private BucketKeys keys(int bucket) {
        return new BucketKeys(prefix, Objects.checkIndex(bucket, buckets));
    }

    private static int positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return value;
    }

    private static long scoreOrNone(Object score) {
        String text = (String) score;
        return text == null || text.isEmpty() ? NONE : Long.parseLong(text);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object reply) {
        return (List<String>) reply;
    }
}
