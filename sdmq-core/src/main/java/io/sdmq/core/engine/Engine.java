package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.IdGenerator;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.DelayQueue;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    private final EngineSettings settings;
    private final ScheduleStore store;
    private final MessageLog messageLog;
    private final IdGenerator ids;
    private final Clock clock;
    private final Workers workers;

    public Engine(EngineSettings settings, ScheduleStore store, MessageLog messageLog, ReadySignal signal,
                  IdGenerator ids, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.messageLog = messageLog;
        this.ids = ids;
        this.clock = clock;
        this.workers = new Workers(settings, store, messageLog, signal, clock);
    }

    public void start() {
        workers.start();
    }

    @Override
    public void close() {
        workers.stop();
    }

    /** True while the scheduler, the reaper and the journal writer run. */
    public boolean healthy() {
        return workers.healthy();
    }

    @Override
    public PushResult push(PushRequest request) {
        Message message = settings.pushRules().toMessage(request, ids.nextId(), clock.millis());
        long holder = workers.journals().inserts().insert(message);
        if (holder != message.id()) {
            return new PushResult(holder, true);
        }
        schedule(message);
        return new PushResult(message.id(), false);
    }

    private void schedule(Message message) {
        int bucket = bucketOf(message.id());
        try {
            workers.locks().shared(bucket, () -> {
                store.push(bucket, message);
                workers.journals().background().record(Transition.of(message.id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY,
                        clock.millis(), store.bucketName(bucket)));
                return null;
            });
        } catch (RuntimeException e) {
            log.warn("Redis did not take message {} ({}); it stays WAIT_PUT in MySQL until recovery schedules it",
                    message.id(), e.toString());
            return;
        }
        workers.scheduled(bucket, message.score());
    }

    @Override
    public void delete(long id) {
        int bucket = bucketOf(id);
        Optional<MessageStatus> was = store.delete(bucket, id, clock.millis());
        if (was.isPresent()) {
            commit(Transition.of(id, was.get(), MessageStatus.DELETED, clock.millis(), store.bucketName(bucket)));
            return;
        }
        StoredMessage stored = pending(id, "delete");
        commit(Transition.of(id, stored.status(), MessageStatus.DELETED, clock.millis(), store.bucketName(bucket))
                .withNote("not in Redis"));
    }

    @Override
    public CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout) {
        PushRules.checkTopic("topic", topic);
        if (count < 1 || count > settings.maxPopCount()) {
            throw new InvalidRequestException("count", "must be in 1.." + settings.maxPopCount());
        }
        if (timeout.isNegative() || timeout.compareTo(settings.maxWait()) > 0) {
            throw new InvalidRequestException("timeout", "must be in 0.." + settings.maxWait().toMillis() + " ms");
        }
        return workers.consumers().pop(topic, count, timeout.toMillis());
    }

    @Override
    public void finish(long id) {
        int bucket = bucketOf(id);
        if (store.finish(bucket, id, clock.millis())) {
            commit(Transition.of(id, MessageStatus.RESERVED, MessageStatus.FINISHED, clock.millis(),
                    store.bucketName(bucket)));
            return;
        }
        pending(id, "finish");
        throw new MessageStateException(id, "is not reserved (not popped yet, or its time-to-run expired)");
    }

    @Override
    public RestoreCounts restore(boolean expire) {
        return workers.restorer().restoreAll(expire);
    }

    @Override
    public RestoreOutcome restoreJob(long id, boolean expire) {
        return workers.restorer().restoreJob(id, expire);
    }

    /** The stored message, unless it is unknown (404) or already terminal (409). */
    private StoredMessage pending(long id, String operation) {
        StoredMessage stored = messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (stored.status().isTerminal()) {
            throw new MessageStateException(id, stored.status(), operation);
        }
        return stored;
    }

    private void commit(Transition transition) {
        workers.journals().terminals().commit(transition);
    }

    private int bucketOf(long id) {
        return Buckets.of(id, store.buckets());
    }

    /** Starts without the scheduler and reaper loops; tests call {@link #runOnce()} instead. */
    void startManual() {
        workers.startManual();
    }

    /** Runs the reconciler, the scheduler and the reaper once at the clock's time: for step-wise tests. */
    void runOnce() {
        workers.runOnce();
    }
}
