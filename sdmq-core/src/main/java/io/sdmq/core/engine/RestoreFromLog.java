package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.RestoreInProgressException;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.RestoreTarget;
import io.sdmq.core.spi.RestoreTarget.Restored;
import io.sdmq.core.spi.RestoreTarget.Restoring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * Puts messages from MySQL back into Redis, never deleting anything: a message Redis holds is left alone, one that
 * finished a moment ago is skipped, and an overdue one is either due now or marked EXPIRED. One full restore runs
 * at a time on an instance; a second is refused.
 */
final class RestoreFromLog {
    private static final Logger log = LoggerFactory.getLogger(RestoreFromLog.class);
    private static final int PROGRESS_EVERY_PAGES = 10;
    /**
     * Buckets of one page written at once, each thread on a Redis connection of its own; the same threads read the
     * next page meanwhile.
     */
    private static final int PARALLEL_BUCKETS = 8;

    private final RestoreTarget store;
    private final MessageLog messageLog;
    private final StatusLog statusLog;
    private final Wakeups wakeups;
    private final Clock clock;
    private final int pageSize;
    private final AtomicBoolean running = new AtomicBoolean();
    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(PARALLEL_BUCKETS, PARALLEL_BUCKETS,
            30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), Daemons.factory("sdmq-restore"));

    RestoreFromLog(RestoreTarget store, MessageLog messageLog, StatusLog statusLog, Wakeups wakeups, Clock clock,
                   int pageSize) {
        this.store = store;
        this.messageLog = messageLog;
        this.statusLog = statusLog;
        this.wakeups = wakeups;
        this.clock = clock;
        this.pageSize = pageSize;
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * Starts a restore of every bucket on a thread of its own and answers at once; {@code progress}, which must not
     * throw, is told zeros before this answers, then the counts so far after each page, on the restore's thread.
     * Refuses at once when one runs on this instance.
     */
    CompletableFuture<RestoreCounts> startAll(boolean expire, Consumer<RestoreCounts> progress) {
        claim();
        progress.accept(new RestoreTally().counts());
        CompletableFuture<RestoreCounts> done = new CompletableFuture<>();
        Daemons.thread("sdmq-restore-run", () -> {
            RestoreCounts counts;
            try {
                counts = restore(expire, bucket -> true, progress);
            } catch (Throwable t) {
                running.set(false);
                done.completeExceptionally(t);
                return;
            }
            running.set(false);
            done.complete(counts);
        }).start();
        return done;
    }

    /** Restores the buckets that hold nothing in Redis (after Redis lost its data); none when all hold something. */
    RestoreCounts restoreEmptyBuckets() {
        boolean[] empty = new boolean[store.buckets()];
        boolean any = false;
        for (int b = 0; b < empty.length; b++) {
            empty[b] = store.isEmpty(b);
            any |= empty[b];
        }
        if (!any) {
            return new RestoreCounts(0, 0, 0, 0, 0);
        }
        claim();
        try {
            return restore(true, bucket -> empty[bucket], counts -> { });
        } finally {
            running.set(false);
        }
    }

    RestoreOutcome restoreMessage(long id, boolean expire) {
        StoredMessage row = messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (row.status().isTerminal()) {
            throw new MessageStateException(id, row.status(), "restore");
        }
        return restoreRows(List.of(row), expire, clock.millis()).get(0);
    }

    /**
     * Puts non-terminal rows back unless Redis holds them, one script per bucket; overdue ones are due now or,
     * without expire, EXPIRED. Answers each row's outcome, in order.
     */
    List<RestoreOutcome> restoreRows(List<StoredMessage> rows, boolean expire, long now) {
        RestoreOutcome[] outcomes = new RestoreOutcome[rows.size()];
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        Buckets.positions(rows.stream().map(row -> row.message().id()).toList(), store.buckets())
                .forEach((bucket, positions) -> {
                    List<Integer> restoring = new ArrayList<>(positions.size());
                    for (int i : positions) {
                        if (overdue(rows.get(i), now) && !expire) {
                            outcomes[i] = expireUnlessHeld(rows.get(i), bucket, now);
                        } else {
                            restoring.add(i);
                        }
                    }
                    if (!restoring.isEmpty()) {
                        writes.add(CompletableFuture.runAsync(
                                () -> restoreBucket(bucket, restoring, rows, outcomes, now), pool));
                    }
                });
        join(CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)));
        return List.of(outcomes);
    }

    /** Writes the given rows of one bucket in one script and records each outcome into its slot of outcomes. */
    private void restoreBucket(int bucket, List<Integer> indexes, List<StoredMessage> rows, RestoreOutcome[] outcomes,
                               long now) {
        List<Restoring> restoring = indexes.stream()
                .map(rows::get)
                .map(row -> new Restoring(row.message(), overdue(row, now) ? now : row.message().score()))
                .toList();
        List<Restored> results = store.restore(bucket, restoring, now);
        long earliest = RestoreTarget.NONE;
        for (int j = 0; j < indexes.size(); j++) {
            outcomes[indexes.get(j)] = record(rows.get(indexes.get(j)), results.get(j), bucket, now);
            if (results.get(j) == Restored.WRITTEN) {
                earliest = Math.min(earliest, restoring.get(j).score());
            }
        }
        if (earliest != RestoreTarget.NONE) {
            wakeups.scheduled(bucket, earliest);
        }
    }

    private static boolean overdue(StoredMessage row, long now) {
        return row.status() == MessageStatus.RESERVED || row.message().dueTime() <= now;
    }

    private RestoreOutcome expireUnlessHeld(StoredMessage row, int bucket, long now) {
        long id = row.message().id();
        if (store.holds(bucket, id)) {
            return RestoreOutcome.ALREADY_PRESENT;
        }
        statusLog.commit(Transition.of(id, row.status(), MessageStatus.EXPIRED, now,
                store.bucketName(bucket)).withNote("overdue at restore"));
        return RestoreOutcome.EXPIRED;
    }

    private RestoreOutcome record(StoredMessage row, Restored result, int bucket, long now) {
        long id = row.message().id();
        String bucketName = store.bucketName(bucket);
        return switch (result) {
            case PRESENT -> {
                if (row.status() == MessageStatus.WAIT_PUT) {
                    statusLog.record(Transition.of(id, MessageStatus.WAIT_PUT,
                            MessageStatus.DELAY, now, bucketName).withNote("found in Redis"));
                }
                yield RestoreOutcome.ALREADY_PRESENT;
            }
            case GONE -> RestoreOutcome.GONE;
            case WRITTEN -> {
                // a DELAY row put back at its own score changes neither its status nor its due time: no transition,
                // so restoring a million of them does not wait for a million status log writes
                if (row.status() != MessageStatus.DELAY || overdue(row, now)) {
                    statusLog.record(Transition.of(id, row.status(), MessageStatus.DELAY, now,
                            bucketName).withNote("restored from MySQL"));
                }
                yield RestoreOutcome.RESTORED;
            }
        };
    }

    /** Pages through the pending rows by id; the next page is read while this one is written to Redis. */
    private RestoreCounts restore(boolean expire, IntPredicate buckets, Consumer<RestoreCounts> progress) {
        RestoreTally tally = new RestoreTally();
        CompletableFuture<List<StoredMessage>> next = readPage(0);
        for (int page = 1; ; page++) {
            List<StoredMessage> rows = join(next);
            boolean last = rows.size() < pageSize;
            if (!last) {
                next = readPage(rows.get(rows.size() - 1).message().id());
            }
            List<StoredMessage> chosen = rows.stream()
                    .filter(row -> buckets.test(Buckets.of(row.message().id(), store.buckets())))
                    .toList();
            restoreRows(chosen, expire, clock.millis()).forEach(tally::count);
            tally.skipped(rows.size() - chosen.size());
            progress.accept(tally.counts());
            if (last) {
                break;
            }
            if (page % PROGRESS_EVERY_PAGES == 0) {
                log.info("restore in progress: {}", tally.counts());
            }
        }
        log.info("restore done (expire={}): {}", expire, tally.counts());
        return tally.counts();
    }

    private CompletableFuture<List<StoredMessage>> readPage(long afterId) {
        return CompletableFuture.supplyAsync(() -> messageLog.findPending(afterId, pageSize), pool);
    }

    /** The future's value; its failure thrown as it was raised, not wrapped. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private void claim() {
        if (!running.compareAndSet(false, true)) {
            throw new RestoreInProgressException();
        }
    }
}
