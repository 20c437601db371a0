package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.core.spi.RestoreTarget;
import io.sdmq.core.spi.Schedule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static io.sdmq.core.redis.RedisBuckets.GONE_MS;
import static io.sdmq.core.redis.RedisBuckets.flags;
import static io.sdmq.core.redis.RedisBuckets.onePerInput;
import static io.sdmq.core.redis.RedisBuckets.positive;
import static io.sdmq.core.redis.RedisBuckets.scoreOrNone;
import static io.sdmq.core.redis.RedisBuckets.strings;

/**
 * The pending messages in Redis: per bucket a meta hash, a delay zset and a cold zset (the ids of messages due beyond
 * the hot window, whose bodies wait in MySQL), every change one Lua script on one bucket's keys (see
 * {@code lua/*.lua} for each script's contract). Also what a restore writes.
 */
public final class RedisSchedule extends RedisBuckets implements Schedule, RestoreTarget {
    private static final Logger log = LoggerFactory.getLogger(RedisSchedule.class);

    private final long coldAfterMs;

    /**
     * @param coldAfter a message due further ahead than this is kept as its id alone, its body in MySQL only (zero:
     *                  every message whole)
     */
    public RedisSchedule(StringRedisTemplate redis, String prefix, int buckets, Duration coldAfter) {
        super(redis, prefix, buckets);
        this.coldAfterMs = coldAfter.toMillis();
    }

    @Override
    public boolean push(int bucket, List<Message> messages, long now) {
        if (messages.isEmpty()) {
            return false;
        }
        return Long.valueOf(1).equals(run(LuaScripts.PUSH, pushCall(bucket, messages, now)));
    }

    /** The buckets' pushes in one pipeline (see {@link #runEach}). */
    @Override
    public List<Supplier<Boolean>> pushEach(int[] buckets, List<List<Message>> messages, long now) {
        return runEach(LuaScripts.PUSH, buckets.length, i -> pushCall(buckets[i], messages.get(i), now),
                (i, head) -> Long.valueOf(1).equals(head));
    }

    private KeysAndArgs pushCall(int bucket, List<Message> messages, long now) {
        return new KeysAndArgs(keys(bucket).metaDelayCold(), entries(atOwnScore(messages), coldFrom(now)));
    }

    @Override
    public ColdIds coldUntil(int bucket, long until, int limit) {
        String key = keys(bucket).cold();
        Set<TypedTuple<String>> first = call(redis -> redis.opsForZSet().rangeWithScores(key, 0,
                positive(limit, "limit")));
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
        List<Object> outcomes = run(LuaScripts.WARM, keys(bucket).metaDelayCold(),
                entries(atOwnScore(messages), NONE).toArray());
        return flags("warm", outcomes, messages.size());
    }

    @Override
    public List<Moved> pushReady(int bucket, List<Message> messages) {
        if (messages.isEmpty()) {
            return List.of();
        }
        BucketKeys keys = keys(bucket);
        List<String> args = new ArrayList<>(messages.size() * 3 + 1);
        args.add(keys.readyPrefix());
        for (Message message : messages) {
            args.add(Long.toString(message.id()));
            args.add(codec.encode(message));
            args.add(message.topic());
        }
        return moved(run(LuaScripts.PUSH_READY, List.of(keys.meta()), args.toArray()));
    }

    @Override
    public MoveResult moveDue(int bucket, long now, int limit) {
        return moveResult(bucket, run(LuaScripts.MOVE_DUE, moveDueCall(bucket, now, limit)));
    }

    /** The buckets' moves in one pipeline (see {@link #runEach}). */
    @Override
    public List<Supplier<MoveResult>> moveDueEach(int[] buckets, long now, int limit) {
        return runEach(LuaScripts.MOVE_DUE, buckets.length, i -> moveDueCall(buckets[i], now, limit),
                (i, reply) -> moveResult(buckets[i], reply));
    }

    private KeysAndArgs moveDueCall(int bucket, long now, int limit) {
        BucketKeys keys = keys(bucket);
        return new KeysAndArgs(keys.metaAndDelay(), List.of(Long.toString(now),
                Integer.toString(positive(limit, "limit")), keys.readyPrefix()));
    }

    private MoveResult moveResult(int bucket, List<Object> reply) {
        List<Moved> moved = moved(reply.get(1));
        log.debug("bucket {}: moved {} due messages, next score {}", bucket, moved.size(), reply.get(0));
        return new MoveResult(moved, scoreOrNone(reply.get(0)));
    }

    /** A script's flat list of id, topic, id, topic, ... */
    private static List<Moved> moved(Object reply) {
        List<String> flat = strings(reply);
        List<Moved> moved = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i < flat.size(); i += 2) {
            moved.add(new Moved(Long.parseLong(flat.get(i)), flat.get(i + 1)));
        }
        return List.copyOf(moved);
    }

    @Override
    public Optional<MessageStatus> delete(int bucket, long id, long now) {
        return deleteAll(bucket, List.of(id), now).get(0);
    }

    @Override
    public List<Optional<MessageStatus>> deleteAll(int bucket, List<Long> ids, long now) {
        BucketKeys keys = keys(bucket);
        List<String> args = new ArrayList<>(ids.size() + 2);
        args.add(Long.toString(now));
        args.add(Long.toString(GONE_MS));
        ids.forEach(id -> args.add(Long.toString(id)));
        return statuses("delete", run(LuaScripts.DELETE, List.of(keys.meta(), keys.delay(), keys.reserved(),
                keys.gone(), keys.cold()), args.toArray()), ids.size());
    }

    @Override
    public Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body) {
        BucketKeys keys = keys(bucket);
        return statuses("reschedule", run(LuaScripts.RESCHEDULE, List.of(keys.meta(), keys.delay(), keys.reserved()),
                Long.toString(dueTime), body == null ? "0" : "1", body == null ? "" : body, Long.toString(id)), 1)
                .get(0);
    }

    @Override
    public List<Optional<MessageStatus>> rescheduleAll(int bucket, List<Long> ids, long dueTime) {
        BucketKeys keys = keys(bucket);
        List<String> args = new ArrayList<>(ids.size() + 3);
        args.addAll(List.of(Long.toString(dueTime), "0", ""));
        ids.forEach(id -> args.add(Long.toString(id)));
        return statuses("reschedule", run(LuaScripts.RESCHEDULE, List.of(keys.meta(), keys.delay(), keys.reserved()),
                args.toArray()), ids.size());
    }

    /** A script's status per id: a status's name, or '' for none. */
    private static List<Optional<MessageStatus>> statuses(String script, List<Object> reply, int ids) {
        return onePerInput(script, reply, ids).stream().map(String::valueOf).map(name -> name.isEmpty()
                ? Optional.<MessageStatus>empty() : Optional.of(MessageStatus.valueOf(name))).toList();
    }

    @Override
    public List<Restored> restore(int bucket, List<Restoring> messages, long now) {
        if (messages.isEmpty()) {
            return List.of();
        }
        BucketKeys keys = keys(bucket);
        List<Object> outcomes = run(LuaScripts.RESTORE, List.of(keys.meta(), keys.delay(), keys.gone(),
                keys.cold()), entries(messages, coldFrom(now)).toArray());
        return onePerInput("restore", outcomes, messages.size()).stream().map(RedisSchedule::restored).toList();
    }

    @Override
    public boolean holds(int bucket, long id) {
        BucketKeys keys = keys(bucket);
        String member = Long.toString(id);
        // cold first: warming moves an id from cold to the meta hash, so a warm between the two looks is still seen
        return call(redis -> redis.opsForZSet().score(keys.cold(), member) != null
                || redis.opsForHash().hasKey(keys.meta(), member));
    }

    @Override
    public boolean isEmpty(int bucket) {
        BucketKeys keys = keys(bucket);
        return call(redis -> redis.countExistingKeys(List.of(keys.meta(), keys.delay(), keys.reserved(),
                keys.cold()))) == 0;
    }

    /** The score at and after which a message written now is kept cold, or {@link #NONE}. */
    private long coldFrom(long now) {
        return coldAfterMs == 0 ? NONE : now + coldAfterMs;
    }

    /**
     * The ARGV of push.lua, warm.lua and restore.lua: id, meta JSON and score, once per message; the meta is empty
     * for a cold one (score at or after {@code coldFrom}).
     */
    private List<String> entries(List<Restoring> messages, long coldFrom) {
        List<String> args = new ArrayList<>(messages.size() * 3);
        for (Restoring restoring : messages) {
            args.add(Long.toString(restoring.message().id()));
            args.add(restoring.score() >= coldFrom ? "" : codec.encode(restoring.message()));
            args.add(Long.toString(restoring.score()));
        }
        return args;
    }

    private static List<Restoring> atOwnScore(List<Message> messages) {
        return messages.stream().map(m -> new Restoring(m, m.score())).toList();
    }

    private static Restored restored(Object outcome) {
        return switch (outcome instanceof Long code ? code.intValue() : -1) {
            case 1 -> Restored.WRITTEN;
            case 0 -> Restored.PRESENT;
            case 2 -> Restored.GONE;
            default -> throw new IllegalStateException("restore answered " + outcome + "; this is a bug");
        };
    }
}
