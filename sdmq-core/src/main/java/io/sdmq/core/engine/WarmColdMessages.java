package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.Schedule;
import io.sdmq.core.spi.Schedule.ColdIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The warmer: reads the cold messages of each bucket from MySQL once they are due within {@code leadMs} and schedules
 * them in Redis. The lead is half the cold window, so a MySQL outage shorter than that delays none of them. A cold
 * id whose message MySQL no longer holds as pending is dropped from Redis. The earliest score it warmed (not one
 * another instance warmed first) goes to {@link Wakeups#scheduled}, which wakes the scheduler if that is before it would look.
 */
final class WarmColdMessages implements TimedLoop.Step {
    private static final Logger log = LoggerFactory.getLogger(WarmColdMessages.class);
    /** Ids read from MySQL at a time: MariaDB runs an IN list of 1 000 or more as a join, which may scan. */
    private static final int PAGE = 500;

    private final Schedule schedule;
    private final MessageLog messageLog;
    private final Wakeups wakeups;
    private final long leadMs;
    private final BucketTimes warmAt;

    WarmColdMessages(Schedule schedule, MessageLog messageLog, Wakeups wakeups, long leadMs, long refreshMs) {
        this.schedule = schedule;
        this.messageLog = messageLog;
        this.wakeups = wakeups;
        this.leadMs = leadMs;
        this.warmAt = new BucketTimes(schedule.buckets(), refreshMs);
    }

    @Override
    public long runOnce(long now) {
        return warmAt.visitDue(now, bucket -> warmBucket(bucket, now));
    }

    private void warmBucket(int bucket, long now) {
        warmAt.drain(bucket, PAGE, () -> {
            ColdIds cold = schedule.coldUntil(bucket, now + leadMs, PAGE);
            warm(bucket, cold.ids(), now);
            return new BucketTimes.Look(cold.ids().size(),
                    cold.nextScore() == Schedule.NONE ? Schedule.NONE : cold.nextScore() - leadMs);
        });
    }

    private void warm(int bucket, List<Long> ids, long now) {
        if (ids.isEmpty()) {
            return;
        }
        Map<Long, StoredMessage> rows = messageLog.findAll(ids).stream()
                .collect(Collectors.toMap(row -> row.message().id(), Function.identity()));
        List<Message> pending = new ArrayList<>(ids.size());
        for (long id : ids) {
            StoredMessage row = rows.get(id);
            if (row == null || row.status().isTerminal()) {
                log.warn("cold message {} is {} in MySQL; dropped from Redis", id,
                        row == null ? "missing" : row.status());
                schedule.delete(bucket, id, now);
            } else {
                pending.add(row.message());
            }
        }
        List<Boolean> warmed = schedule.warm(bucket, pending);
        IntStream.range(0, pending.size()).filter(warmed::get).mapToLong(i -> pending.get(i).score()).min()
                .ifPresent(score -> wakeups.scheduled(bucket, score));
    }
}
