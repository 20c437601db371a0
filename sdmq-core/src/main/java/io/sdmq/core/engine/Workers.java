package io.sdmq.core.engine;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Composes the engine's loops and threads and orders their start and stop. */
final class Workers {
    private static final Logger log = LoggerFactory.getLogger(Workers.class);
    private static final int DRAIN_THREADS = 4;

    private final EngineSettings settings;
    private final ScheduleStore store;
    private final ReadySignal signal;
    private final Clock clock;
    private final Journals journals;
    private final MoveDueMessages scheduler;
    private final RequeueExpiredReservations reaper;
    private final WaitingConsumers consumers;
    private final RestoreFromLog restorer;
    private final TimedLoop schedulerLoop;
    private final TimedLoop reaperLoop;
    private final WarmColdMessages warmer;
    private final TimedLoop warmerLoop;
    private final ReconcileWithLog reconciler;
    private final TimedLoop reconcileLoop;
    private final TimedLoop purgeLoop;
    private final ExecutorService drainer = Executors.newFixedThreadPool(DRAIN_THREADS, Daemons.factory("sdmq-pop"));
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-timer"));
    private final BucketLocks locks;

    Workers(EngineSettings settings, ScheduleStore store, MessageLog messageLog, ReadySignal signal, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.signal = signal;
        this.clock = clock;
        long refreshMs = settings.maxSleep().toMillis();
        this.journals = new Journals(messageLog, settings);
        JournalWriter journal = journals.background();
        this.locks = new BucketLocks(store.buckets());
        this.scheduler = new MoveDueMessages(store, journal, this::ready, locks, settings.moveBatch(), refreshMs);
        this.reaper = new RequeueExpiredReservations(store, journal, this::scheduled, settings.moveBatch(), refreshMs);
        this.consumers = new WaitingConsumers(store, journal, this::reserved, locks, clock, drainer, timer);
        this.restorer = new RestoreFromLog(store, messageLog, this, clock, settings.recovery().restorePage());
        this.schedulerLoop = new TimedLoop("sdmq-scheduler", scheduler, clock, refreshMs);
        this.reaperLoop = new TimedLoop("sdmq-reaper", reaper, clock, refreshMs);
        // a cold message is due a full lead after it was written at the earliest, so looking now and then is enough;
        // with no cold window, what a former one left cold is warmed at once
        long leadMs = settings.coldAfter().isZero() ? Long.MAX_VALUE / 2 : settings.coldAfter().toMillis() / 2;
        long warmerRefreshMs = Math.max(refreshMs, Math.min(leadMs / 10, 60_000));
        this.warmer = new WarmColdMessages(store, messageLog, this::scheduled, leadMs, warmerRefreshMs);
        this.warmerLoop = new TimedLoop("sdmq-warmer", warmer, clock, warmerRefreshMs);
        RecoverySettings recovery = settings.recovery();
        this.reconciler = new ReconcileWithLog(messageLog, restorer, recovery);
        this.reconcileLoop = new TimedLoop("sdmq-reconciler", reconciler, clock,
                recovery.reconcileInterval().toMillis());
        this.purgeLoop = recovery.retention().isZero() ? null
                : new TimedLoop("sdmq-retention", new PurgeOldMessages(messageLog, recovery), clock, 60_000);
    }

    Journals journals() {
        return journals;
    }

    BucketLocks locks() {
        return locks;
    }

    WaitingConsumers consumers() {
        return consumers;
    }

    RestoreFromLog restorer() {
        return restorer;
    }

    void start() {
        startManual();
        schedulerLoop.start();
        reaperLoop.start();
        warmerLoop.start();
        reconcileLoop.start();
        if (purgeLoop != null) {
            purgeLoop.start();
        }
        if (settings.recovery().autoRestore()) {
            Daemons.thread("sdmq-auto-restore", this::restoreEmptyBuckets).start();
        }
        long sweepMs = settings.readySweep().toMillis();
        timer.scheduleWithFixedDelay(this::sweep, sweepMs, sweepMs, TimeUnit.MILLISECONDS);
        log.info("engine started: {} buckets, host {}", store.buckets(), settings.host());
    }

    /** Starts what answers callers (journal, signal, pops) but no loop: tests drive those with {@link #runOnce}. */
    void startManual() {
        journals.start();
        signal.subscribe(consumers::ready);
        findReadyTopics();
    }

    void stop() {
        schedulerLoop.stop();
        reaperLoop.stop();
        warmerLoop.stop();
        reconcileLoop.stop();
        if (purgeLoop != null) {
            purgeLoop.stop();
        }
        timer.shutdownNow();
        drainer.shutdownNow();
        signal.close();
        journals.stop();
        log.info("engine stopped; {} journal writes were pending", journals.pending());
    }

    boolean healthy() {
        return schedulerLoop.healthy() && reaperLoop.healthy() && warmerLoop.healthy() && journals.alive();
    }

    /** The score at and after which a message written to Redis now is kept cold, or {@link ScheduleStore#NONE}. */
    long coldFrom(long now) {
        return settings.coldAfter().isZero() ? ScheduleStore.NONE : now + settings.coldAfter().toMillis();
    }

    void scheduled(int bucket, long score) {
        if (scheduler.scheduled(bucket, score)) {
            schedulerLoop.wake();
        }
    }

    void runOnce() {
        long now = clock.millis();
        reconciler.runOnce(now);
        warmer.runOnce(now);
        scheduler.runOnce(now);
        reaper.runOnce(now);
    }

    private void ready(int bucket, Set<String> topics) {
        topics.forEach(topic -> consumers.ready(bucket, topic));
        signal.publish(bucket, topics);
    }

    private void reserved(int bucket, long deadline) {
        if (reaper.reserved(bucket, deadline)) {
            reaperLoop.wake();
        }
    }

    private void restoreEmptyBuckets() {
        try {
            restorer.restoreEmptyBuckets();
        } catch (RuntimeException e) {
            log.warn("could not restore empty buckets at start ({}); the reconciler repairs overdue messages",
                    e.toString());
        }
    }

    private void findReadyTopics() {
        try {
            for (int b = 0; b < store.buckets(); b++) {
                for (String topic : store.readyTopics(b)) {
                    consumers.ready(b, topic);
                }
            }
        } catch (RuntimeException e) {
            log.warn("could not list ready topics in Redis ({}); consumers find them by the sweep", e.toString());
        }
    }

    private void sweep() {
        try {
            consumers.sweep();
        } catch (Throwable t) {
            log.warn("ready sweep failed ({}); will retry in {} ms", t.toString(), settings.readySweep().toMillis());
        }
    }
}
