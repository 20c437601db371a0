package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
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
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * Puts messages from MySQL back into Redis, never deleting anything: a message Redis holds is left alone, one that
 * finished a moment ago is skipped, and an overdue one is either due now or marked EXPIRED. One full restore runs
 * at a time on an instance; a second is refused.
 */
final class RestoreFromLog {
    private static final Logger log = LoggerFactory.getLogger(RestoreFromLog.class);
    private static final int PAGE = 1_000;
    private static final int PROGRESS_EVERY_PAGES = 50;

    private final ScheduleStore store;
    private final MessageLog messageLog;
    private final Workers workers;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean();

    RestoreFromLog(ScheduleStore store, MessageLog messageLog, Workers workers, Clock clock) {
        this.store = store;
        this.messageLog = messageLog;
        this.workers = workers;
        this.clock = clock;
    }

    RestoreCounts restoreAll(boolean expire) {
        return exclusively(() -> restore(expire, bucket -> true));
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
        return exclusively(() -> restore(true, bucket -> empty[bucket]));
    }

    RestoreOutcome restoreJob(long id, boolean expire) {
        StoredMessage row = messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (row.status().isTerminal()) {
            throw new MessageStateException(id, row.status(), "restore");
        }
        return restoreRow(row, expire, clock.millis());
    }

    /** Puts one non-terminal row back unless Redis holds it; overdue ones are due now or, without expire, EXPIRED. */
    RestoreOutcome restoreRow(StoredMessage row, boolean expire, long now) {
        Message m = row.message();
        int bucket = Buckets.of(m.id(), store.buckets());
        String bucketName = store.bucketName(bucket);
        boolean overdue = row.status() == MessageStatus.RESERVED || m.dueTime() <= now;
        if (overdue && !expire) {
            if (store.holds(bucket, m.id())) {
                return RestoreOutcome.ALREADY_PRESENT;
            }
            workers.journals().terminals().commit(Transition.of(m.id(), row.status(), MessageStatus.EXPIRED, now, bucketName)
                    .withNote("overdue at restore"));
            return RestoreOutcome.EXPIRED;
        }
        long score = overdue ? now : m.score();
        return switch (store.restore(bucket, m, score)) {
            case PRESENT -> {
                if (row.status() == MessageStatus.WAIT_PUT) {
                    workers.journals().background().record(Transition.of(m.id(), MessageStatus.WAIT_PUT,
                            MessageStatus.DELAY, now, bucketName).withNote("found in Redis"));
                }
                yield RestoreOutcome.ALREADY_PRESENT;
            }
            case GONE -> RestoreOutcome.GONE;
            case WRITTEN -> {
                workers.journals().background().record(Transition.of(m.id(), row.status(), MessageStatus.DELAY, now, bucketName)
                        .withNote("restored from MySQL"));
                workers.scheduled(bucket, score);
                yield RestoreOutcome.RESTORED;
            }
        };
    }

    private RestoreCounts restore(boolean expire, IntPredicate buckets) {
        Tally tally = new Tally();
        long after = 0;
        for (int page = 1; ; page++) {
            List<StoredMessage> rows = messageLog.findPending(after, PAGE);
            long now = clock.millis();
            for (StoredMessage row : rows) {
                tally.count(buckets.test(Buckets.of(row.message().id(), store.buckets()))
                        ? restoreRow(row, expire, now) : RestoreOutcome.SKIPPED);
            }
            if (rows.size() < PAGE) {
                break;
            }
            after = rows.get(rows.size() - 1).message().id();
            if (page % PROGRESS_EVERY_PAGES == 0) {
                log.info("restore in progress: {}", tally.counts());
            }
        }
        log.info("restore done (expire={}): {}", expire, tally.counts());
        return tally.counts();
    }

    private RestoreCounts exclusively(Supplier<RestoreCounts> restore) {
        if (!running.compareAndSet(false, true)) {
            throw new RestoreInProgressException();
        }
        try {
            return restore.get();
        } finally {
            running.set(false);
        }
    }

    private static final class Tally {
        private long scanned;
        private long restored;
        private long present;
        private long expired;
        private long gone;

        void count(RestoreOutcome outcome) {
            scanned++;
            switch (outcome) {
                case RESTORED -> restored++;
                case ALREADY_PRESENT -> present++;
                case EXPIRED -> expired++;
                case GONE -> gone++;
                case SKIPPED -> { }
            }
        }

        RestoreCounts counts() {
            return new RestoreCounts(scanned, restored, present, expired, gone);
        }
    }
}
