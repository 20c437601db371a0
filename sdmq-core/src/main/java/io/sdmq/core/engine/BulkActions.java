package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Daemons;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.MessageQuery;
import io.sdmq.core.spi.Schedule;

import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.EXPIRED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;

/**
 * The operators' bulk actions: the matching messages are read from MySQL in keyset pages of {@link #PAGE}, oldest
 * first, and each page is changed, one script per bucket, with the per-message steps the engine already races safely
 * with consumers and the scheduler: a message moves only where it still is what the page read (still in the delay
 * zset for run-now, still DEAD or EXPIRED in MySQL for requeue, still in Redis for delete), so one finished meanwhile
 * is left alone. No transaction spans more than a page; a repeated action finds nothing left to change. Every change
 * is a status log row whose note names the action and the caller.
 */
final class BulkActions {
    /** Messages read and changed at a time. */
    static final int PAGE = 1_000;
    static final Set<MessageStatus> RUN_NOW = EnumSet.of(WAIT_PUT, DELAY);
    static final Set<MessageStatus> REQUEUE = EnumSet.of(DEAD, EXPIRED);
    static final Set<MessageStatus> DELETE = EnumSet.of(WAIT_PUT, DELAY, READY, RESERVED, DEAD, EXPIRED);
    static final Set<MessageStatus> PURGE = EnumSet.of(WAIT_PUT, DELAY, READY);
    /** The longest caller name a note holds (the status log's note column holds 255 characters). */
    private static final int MAX_CALLER = 200;

    private final MessageLog messageLog;
    private final StatusLog statusLog;
    private final ScheduleCommitted scheduling;
    private final ProducerCalls producer;
    private final Schedule schedule;
    private final Wakeups wakeups;
    private final Clock clock;
    /** Reads the next page of each action under way, and a requeue's Redis steps; a thread ends after a minute idle. */
    private final ExecutorService background = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), Daemons.factory("sdmq-bulk"));

    BulkActions(MessageLog messageLog, StatusLog statusLog, ScheduleCommitted scheduling, ProducerCalls producer,
                Schedule schedule, Wakeups wakeups, Clock clock) {
        this.wakeups = wakeups;
        this.messageLog = messageLog;
        this.statusLog = statusLog;
        this.scheduling = scheduling;
        this.producer = producer;
        this.schedule = schedule;
        this.clock = clock;
    }

    /**
     * Pending messages not yet due become due now, keeping their ids; each page's moves are committed before the
     * next page is read. A cold message, which the script does not find, is warmed and moved on its own.
     */
    BulkResult runNow(BulkFilter filter, String caller) {
        long now = clock.millis();
        String note = note("run-now", caller);
        BulkResult result = inPages(query(filter, RUN_NOW, now), page -> {
            List<Transition> moved = new ArrayList<>(page.size());
            int changed = 0;
            for (Map.Entry<Integer, List<Long>> bucket : byBucket(page).entrySet()) {
                List<Long> ids = bucket.getValue();
                List<Optional<MessageStatus>> where = schedule.rescheduleAll(bucket.getKey(), ids, now);
                for (int i = 0; i < ids.size(); i++) {
                    if (where.get(i).isPresent() && where.get(i).get() == DELAY) {
                        moved.add(Transition.of(ids.get(i), DELAY, DELAY, clock.millis(),
                                schedule.bucketName(bucket.getKey())).withDueTime(now).withNote(note));
                    } else if (where.get(i).isEmpty() && producer.runAt(ids.get(i), now, note)) {
                        changed++;
                    }
                }
                wakeups.scheduled(bucket.getKey(), now);
            }
            statusLog.commitAll(moved);
            return changed + moved.size();
        });
        // the cold ones' moves went to the background writer: in MySQL when the action answers
        statusLog.flushBackground();
        return result;
    }

    /**
     * DEAD or EXPIRED messages come back due now with no attempts, as {@link AdminCalls#requeue} brings one, but
     * straight to READY: a page's move is committed before its messages go to their topics' ready lists, and a message
     * committed READY that Redis did not take (Redis down, or this instance killed in between) is overdue, so the
     * reconciler puts it back once it is overdue by its grace, as it does any scheduled message Redis lost. A WAIT_PUT
     * or DELAY step would cost each message a second update and status log row. A page is timed after the last change
     * of each of its messages: a transition of a message's last delivery still queued for the background writer, here
     * or on another instance, is not later than the message's death, so the status log's guard keeps it from moving
     * the row once the requeue is written, and the page need not wait for the background writer.
     */
    BulkResult requeue(BulkFilter filter, String caller) {
        String note = note("requeue", caller);
        // a page goes to Redis while the next page's move is committed; one page at a time, the last before the answer
        AtomicReference<CompletableFuture<Void>> toRedis =
                new AtomicReference<>(CompletableFuture.completedFuture(null));
        BulkResult result = inPages(query(filter, REQUEUE, null), page -> {
            long now = timedAfter(page);
            List<Transition> transitions = page.stream().map(row -> Transition.of(row.message().id(), row.status(),
                    READY, now, bucketName(row.message().id())).withAttempts(0).withDueTime(now).withNote(note))
                    .toList();
            Set<Long> moved = Set.copyOf(messageLog.applyWhereStill(transitions));
            List<Message> ready = page.stream().map(StoredMessage::message).filter(m -> moved.contains(m.id()))
                    .map(m -> m.withAttempts(0).withDueTime(now)).toList();
            RestoreFromLog.join(toRedis.get());
            toRedis.set(CompletableFuture.runAsync(() -> scheduling.scheduleReady(ready), background));
            return moved.size();
        });
        RestoreFromLog.join(toRedis.get());
        return result;
    }

    /**
     * Pending, reserved, DEAD or EXPIRED messages are deleted: the first from Redis, then in MySQL; DEAD and EXPIRED
     * ones, which Redis no longer holds, in MySQL only, where they are still what the page read.
     */
    BulkResult delete(BulkFilter filter, String caller) {
        return deleteAll(query(filter, DELETE, null), note("delete", caller));
    }

    /** Every pending message of the topic is deleted. */
    BulkResult purge(String topic, String caller) {
        MessageQuery query = new MessageQuery(OperatorFields.topic("topic", topic), PURGE, null, List.of(), null,
                null, null, null, false, MessageQuery.START);
        return deleteAll(query, note("purge", caller));
    }

    /** Deletes the query's messages a page at a time. */
    private BulkResult deleteAll(MessageQuery query, String note) {
        return inPages(query, page -> {
            List<StoredMessage> buried = page.stream().filter(row -> REQUEUE.contains(row.status())).toList();
            List<StoredMessage> scheduled = page.stream().filter(row -> !REQUEUE.contains(row.status())).toList();
            return discard(buried, note) + deleteScheduled(scheduled, note);
        });
    }

    /** DEAD or EXPIRED messages become DELETED in MySQL, timed after their last change, where they still are. */
    private int discard(List<StoredMessage> rows, String note) {
        if (rows.isEmpty()) {
            return 0;
        }
        long now = timedAfter(rows);
        return messageLog.applyWhereStill(rows.stream().map(row -> Transition.of(row.message().id(), row.status(),
                MessageStatus.DELETED, now, bucketName(row.message().id())).withNote(note)).toList()).size();
    }

    /** Deletes each message of the page that Redis still holds (one finished meanwhile it no longer does). */
    private int deleteScheduled(List<StoredMessage> page, String note) {
        if (page.isEmpty()) {
            return 0;
        }
        List<Transition> deleted = new ArrayList<>(page.size());
        for (Map.Entry<Integer, List<Long>> bucket : byBucket(page).entrySet()) {
            List<Long> ids = bucket.getValue();
            List<Optional<MessageStatus>> was = schedule.deleteAll(bucket.getKey(), ids, clock.millis());
            // timed after the script: a pop just before it may have logged a later time than one read before it,
            // and the status log's guard keeps a row's latest change
            long at = clock.millis();
            for (int i = 0; i < ids.size(); i++) {
                if (was.get(i).isPresent()) {
                    deleted.add(Transition.of(ids.get(i), was.get(i).get(), MessageStatus.DELETED, at,
                            schedule.bucketName(bucket.getKey())).withNote(note));
                }
            }
        }
        statusLog.commitAll(deleted);
        return deleted.size();
    }

    /**
     * A time for moves of the rows out of DEAD or EXPIRED: now, or just after the latest change of any of them, so that
     * a transition of a message's last delivery still being written cannot land on top of the move.
     */
    private long timedAfter(List<StoredMessage> rows) {
        return Math.max(clock.millis(), rows.stream().mapToLong(StoredMessage::updateTime).max().orElseThrow() + 1);
    }

    /** The page's ids by bucket: one script per bucket and page. */
    private Map<Integer, List<Long>> byBucket(List<StoredMessage> page) {
        List<Long> ids = page.stream().map(row -> row.message().id()).toList();
        Map<Integer, List<Long>> byBucket = new TreeMap<>();
        Buckets.positions(ids, schedule.buckets()).forEach((bucket, at) ->
                byBucket.put(bucket, at.stream().map(ids::get).toList()));
        return byBucket;
    }

    /**
     * Runs {@code change} over the query's pages; it answers how many messages of its page it changed. The next page
     * is read while this one is changed: its ids are all beyond this page's, so the change does not touch them, and
     * each change checks again, under its own lock or script, that a message is still what the page read.
     */
    private BulkResult inPages(MessageQuery query, Function<List<StoredMessage>, Integer> change) {
        long matched = 0;
        long changed = 0;
        CompletableFuture<List<StoredMessage>> next = read(query);
        while (true) {
            List<StoredMessage> rows = RestoreFromLog.join(next);
            boolean last = rows.size() < PAGE;
            if (!last) {
                query = query.after(rows.get(rows.size() - 1).message().id());
                next = read(query);
            }
            matched += rows.size();
            changed += rows.isEmpty() ? 0 : change.apply(rows);
            if (last) {
                return new BulkResult(matched, changed);
            }
        }
    }

    private CompletableFuture<List<StoredMessage>> read(MessageQuery page) {
        return CompletableFuture.supplyAsync(() -> messageLog.search(page, PAGE), background);
    }

    /** The filter's query over the action's statuses, due after {@code dueAfter} when not null. */
    private static MessageQuery query(BulkFilter filter, Set<MessageStatus> statuses, Long dueAfter) {
        boolean narrowed = filter.topic() != null || filter.ids() != null || filter.bizKey() != null
                || filter.status() != null || filter.dueBefore() != null;
        if (Boolean.TRUE.equals(filter.all()) == narrowed) {
            throw new InvalidRequestException("all", narrowed ? "must be absent when another field narrows the filter"
                    : "must be true for a filter that names no topic, ids, bizKey, status or dueBefore, so that "
                    + "matching every message is meant");
        }
        return new MessageQuery(OperatorFields.topic("topic", filter.topic()),
                OperatorFields.status(filter.status(), statuses), OperatorFields.bizKey(filter.bizKey()),
                OperatorFields.ids(filter.ids()), null, null, dueAfter,
                OperatorFields.instant("dueBefore", filter.dueBefore()), false, MessageQuery.START);
    }

    private String bucketName(long id) {
        return schedule.bucketName(Buckets.of(id, schedule.buckets()));
    }

    private static String note(String action, String caller) {
        String name = caller == null || caller.isEmpty() ? "anonymous" : caller;
        return action + " by " + (name.length() > MAX_CALLER ? name.substring(0, MAX_CALLER) : name);
    }
}
