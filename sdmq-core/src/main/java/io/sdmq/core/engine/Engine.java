package io.sdmq.core.engine;

import io.sdmq.common.IdGenerator;
import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.SdmqException;
import io.sdmq.core.DelayQueue;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.JobView;
import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.ScheduleStore;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The delay queue: MySQL first (the system of record), then the bucket's script in Redis. Built from ports and
 * a Spring-free settings record; {@link #start()} starts its loops, {@link #close()} stops them.
 */
public final class Engine implements DelayQueue, AutoCloseable {
    private final Workers workers;
    private final ProducerCalls producers;
    private final ConsumerCalls consumers;
    private final AdminCalls admin;

    public Engine(EngineSettings settings, ScheduleStore store, MessageLog messageLog, ReadySignal signal,
                  IdGenerator ids, Clock clock) {
        this.workers = new Workers(settings, store, messageLog, signal, clock);
        Ops ops = new Ops(settings, store, messageLog, workers, clock);
        this.producers = new ProducerCalls(ops, ids);
        this.consumers = new ConsumerCalls(ops);
        this.admin = new AdminCalls(ops);
    }

    public void start() {
        workers.start();
    }

    @Override
    public void close() {
        workers.stop();
    }

    /** MySQL writes queued and not yet committed: new messages, terminal and background transitions. */
    public int pendingJournalWrites() {
        return workers.journals().pending();
    }

    /** True while the scheduler, the reaper and the journal writers run. */
    public boolean healthy() {
        return workers.healthy();
    }

    @Override
    public PushResult push(PushRequest request, OnDuplicate onDuplicate) {
        return producers.push(request, onDuplicate);
    }

    @Override
    public List<PushResult> pushBatch(List<PushRequest> requests, OnDuplicate onDuplicate) {
        return producers.pushBatch(requests, onDuplicate);
    }

    @Override
    public void delete(long id) {
        producers.delete(id);
    }

    @Override
    public void deleteByKey(String topic, String bizKey) {
        producers.deleteByKey(topic, bizKey);
    }

    @Override
    public long reschedule(long id, Long delay, Long deliverAt) {
        return producers.reschedule(id, delay, deliverAt);
    }

    @Override
    public CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout) {
        return consumers.pop(topic, count, timeout);
    }

    @Override
    public void finish(long id) {
        consumers.finish(id);
    }

    @Override
    public List<Optional<SdmqException>> finishAll(List<Long> ids) {
        return consumers.finishAll(ids);
    }

    @Override
    public void nack(long id, Long delay) {
        consumers.nack(id, delay);
    }

    @Override
    public long touch(long id) {
        return consumers.touch(id);
    }

    @Override
    public void requeue(long id) {
        admin.requeue(id);
    }

    @Override
    public JobView job(long id) {
        return admin.job(id);
    }

    @Override
    public RestoreCounts restore(boolean expire) {
        return workers.restorer().restoreAll(expire);
    }

    @Override
    public RestoreOutcome restoreJob(long id, boolean expire) {
        return workers.restorer().restoreJob(id, expire);
    }

    /** Starts without the loops; tests call {@link #runOnce()} instead. */
    void startManual() {
        workers.startManual();
    }

    /** Runs the reconciler, the warmer, the scheduler and the reaper once at the clock's time: for step-wise tests. */
    void runOnce() {
        workers.runOnce();
    }
}
