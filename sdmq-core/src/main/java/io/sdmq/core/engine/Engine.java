package io.sdmq.core.engine;

import io.sdmq.common.Daemons;
import io.sdmq.common.IdGenerator;
import io.sdmq.core.Admin;
import io.sdmq.core.Consumer;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.Producer;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.Topics;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.Reservations;
import io.sdmq.core.spi.RestoreTarget;
import io.sdmq.core.spi.Schedule;
import io.sdmq.core.spi.TopicLimits;
import io.sdmq.core.spi.TopicStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The delay queue, built from its ports and a Spring-free settings record: MySQL first (the system of record), then
 * the bucket's script in Redis. It composes the parts and orders their start and stop; what callers do goes through
 * {@link #producer()}, {@link #consumer()} and {@link #admin()}.
 */
public final class Engine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    private static final int DRAIN_THREADS = 4;
    /** How often every instance reads the topics' settings again: a change made elsewhere is seen within it. */
    private static final long TOPICS_RELOAD_MS = 1_000;

    private final EngineSettings settings;
    private final ReadySignal signal;
    private final Clock clock;
    private final StatusLog statusLog;
    private final ExecutorService drainer = Executors.newFixedThreadPool(DRAIN_THREADS, Daemons.factory("sdmq-pop"));
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Daemons.factory("sdmq-timer"));
    private final WaitingConsumers waiting;
    private final RestoreFromLog restorer;
    private final Loops loops;
    private final Producer producer;
    private final Consumer consumer;
    private final Admin admin;
    private final TopicRules topicRules;
    private final Topics topics;
    private final BucketTimes dueTimes;
    private final long builtAt;

    /** An engine without topic settings: every topic runs by the server's defaults. */
    public Engine(EngineSettings settings, Schedule schedule, Reservations reservations, RestoreTarget restoreTarget,
                  MessageLog messageLog, ReadySignal signal, IdGenerator ids, Clock clock) {
        this(settings, schedule, reservations, restoreTarget, messageLog, signal, ids, clock, new NoTopicSettings(),
                null, MessageEvents.NONE);
    }

    /**
     * The three schedule ports are usually one store's: Redis in production, memory in tests. The topics' settings
     * are in {@code topicStore}, their rate and in-flight limits shared through {@code topicLimits}; {@code events}
     * is told what happens to messages (the metrics).
     */
    public Engine(EngineSettings settings, Schedule schedule, Reservations reservations, RestoreTarget restoreTarget,
                  MessageLog messageLog, ReadySignal signal, IdGenerator ids, Clock clock, TopicStore topicStore,
                  TopicLimits topicLimits, MessageEvents events) {
        this.settings = settings;
        this.topicRules = new TopicRules(topicStore, settings.pushRules());
        this.topics = new TopicCalls(topicStore, topicRules, settings.pushRules(), clock);
        TopicGate gate = new TopicGate(topicRules, topicLimits);
        this.signal = signal;
        this.clock = clock;
        this.statusLog = new StatusLog(messageLog, settings, System::nanoTime);
        long refreshMs = settings.maxSleep().toMillis();
        this.builtAt = clock.millis();
        this.dueTimes = new BucketTimes(schedule.buckets(), refreshMs);
        BucketTimes deadlines = new BucketTimes(schedule.buckets(), refreshMs);
        Alarm schedulerAlarm = new Alarm();
        Alarm reaperAlarm = new Alarm();
        Wakeups wakeups = new Wakeups(dueTimes, schedulerAlarm, deadlines, reaperAlarm);
        BucketLocks locks = new BucketLocks(schedule.buckets());
        this.waiting = new WaitingConsumers(new ReadyPops(reservations, statusLog, wakeups, locks, gate, events, clock),
                reservations, drainer, timer);
        this.restorer = new RestoreFromLog(restoreTarget, messageLog, statusLog, wakeups, clock,
                settings.recovery().restorePage());
        ScheduleCommitted scheduling = new ScheduleCommitted(schedule, locks, statusLog, wakeups, this::ready,
                clock);
        ProducerCalls producerCalls = new ProducerCalls(new NewMessages(settings.pushRules(), topicRules, ids, clock),
                statusLog, scheduling, schedule, messageLog, wakeups, events, clock);
        this.producer = producerCalls;
        this.consumer = new ConsumerCalls(settings, waiting, reservations, statusLog, messageLog, wakeups, events, gate,
                clock);
        this.admin = new AdminCalls(messageLog, statusLog, scheduling, restorer, schedule, clock,
                new BulkActions(messageLog, statusLog, scheduling, producerCalls, schedule, wakeups, clock));
        MoveDueMessages scheduler = new MoveDueMessages(schedule, statusLog, this::ready, locks,
                settings.moveBatch(), dueTimes, clock);
        RequeueExpiredReservations reaper = new RequeueExpiredReservations(reservations, statusLog, wakeups,
                settings.moveBatch(), deadlines, events);
        this.loops = loops(settings, schedule, messageLog, wakeups,
                new TimedLoop("sdmq-scheduler", scheduler, clock, refreshMs, schedulerAlarm),
                new TimedLoop("sdmq-reaper", reaper, clock, refreshMs, reaperAlarm));
    }

    /** The scheduler and the reaper with the warmer, the reconciler and retention. */
    private Loops loops(EngineSettings settings, Schedule schedule, MessageLog messageLog, Wakeups wakeups,
                        TimedLoop scheduler, TimedLoop reaper) {
        long refreshMs = settings.maxSleep().toMillis();
        // a cold message is due a full lead after it was written at the earliest, so looking now and then is enough;
        // with no cold window, what a former one left cold is warmed at once
        long leadMs = settings.coldAfter().isZero() ? Long.MAX_VALUE / 2 : settings.coldAfter().toMillis() / 2;
        long warmerRefreshMs = Math.max(refreshMs, Math.min(leadMs / 10, 60_000));
        TimedLoop warmer = new TimedLoop("sdmq-warmer",
                new WarmColdMessages(schedule, messageLog, wakeups, leadMs, warmerRefreshMs), clock, warmerRefreshMs);
        RecoverySettings recovery = settings.recovery();
        TimedLoop reconciler = new TimedLoop("sdmq-reconciler", new ReconcileWithLog(messageLog, restorer, recovery),
                clock, recovery.reconcileInterval().toMillis());
        TimedLoop retention = new TimedLoop("sdmq-retention", new PurgeOldMessages(messageLog, recovery, topicRules),
                clock, 60_000);
        return new Loops(reconciler, warmer, scheduler, reaper, retention);
    }

    public Producer producer() {
        return producer;
    }

    public Consumer consumer() {
        return consumer;
    }

    public Admin admin() {
        return admin;
    }

    public Topics topics() {
        return topics;
    }

    public void start() {
        startManual();
        loops.start();
        if (settings.recovery().autoRestore()) {
            Daemons.thread("sdmq-auto-restore", this::restoreEmptyBuckets).start();
        }
        long sweepMs = settings.readySweep().toMillis();
        timer.scheduleWithFixedDelay(this::sweep, sweepMs, sweepMs, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::reloadTopics, TOPICS_RELOAD_MS, TOPICS_RELOAD_MS, TimeUnit.MILLISECONDS);
        log.info("engine started, host {}", settings.host());
    }

    /** Stops the loops and the pops, writes the background transitions queued (bounded by the write timeout), stops. */
    @Override
    public void close() {
        loops.stop();
        timer.shutdownNow();
        drainer.shutdownNow();
        signal.close();
        try {
            if (statusLog.alive()) {
                statusLog.flushBackground();
            }
        } catch (RuntimeException e) {
            log.warn("could not write the queued background transitions at stop ({}); the reconciler repairs them",
                    e.toString());
        }
        statusLog.stop();
        log.info("engine stopped; {} status log writes were pending", statusLog.pending());
    }

    /**
     * The first step of a shutdown, before the callers' requests are drained: answers every parked pop with what it
     * has (an empty list unless a lingering pop got some), and every later pop at once with an empty list, so no
     * consumer holds the shutdown up until its timeout. Messages keep moving; pushes and finishes work as before.
     *
     * @return how many parked pops were answered
     */
    public int answerWaitingConsumers() {
        return waiting.answerAll();
    }

    /** MySQL writes queued and not yet committed: new messages, terminal and background transitions. */
    public int pendingWrites() {
        return statusLog.pending();
    }

    /**
     * How far the scheduler runs behind: how long ago the earliest due time this instance knows of (its own pushes,
     * nacks, redeliveries, restores, and what its last look at each bucket left) passed without its bucket being
     * looked at again; 0 while it keeps up. Messages other instances scheduled count from its next look at Redis.
     */
    public long schedulerLagMs() {
        long now = clock.millis();
        return Math.min(dueTimes.overdue(now), Math.max(0, now - builtAt));
    }

    /** True while the scheduler, the reaper, the warmer and the status log writers run. */
    public boolean healthy() {
        return loops.healthy() && statusLog.alive();
    }

    /** Starts what answers callers (status log, signal, pops) but no loop: tests drive those with {@link #runOnce}. */
    void startManual() {
        reloadTopics();
        statusLog.start();
        signal.subscribe(waiting::ready);
        waiting.findReadyTopics();
    }

    /** Runs the reconciler, the warmer, the scheduler and the reaper once at the clock's time: for step-wise tests. */
    void runOnce() {
        loops.runOnce();
    }

    private void ready(int bucket, Map<String, Integer> counts) {
        counts.forEach((topic, count) -> waiting.ready(bucket, topic, count));
        signal.publish(bucket, counts.keySet());
    }

    private void restoreEmptyBuckets() {
        try {
            restorer.restoreEmptyBuckets();
        } catch (RuntimeException e) {
            log.warn("could not restore empty buckets at start ({}); the reconciler repairs overdue messages",
                    e.toString());
        }
    }

    private void reloadTopics() {
        try {
            topicRules.reload();
        } catch (Throwable t) {
            log.warn("could not reload the topics' settings ({}); keeping the last ones, will retry in {} ms",
                    t.toString(), TOPICS_RELOAD_MS);
        }
    }

    private void sweep() {
        try {
            waiting.sweep();
        } catch (Throwable t) {
            log.warn("ready sweep failed ({}); will retry in {} ms", t.toString(), settings.readySweep().toMillis());
        }
    }
}
