package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ScheduleStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** What the engine's calls share: the ports, the clock, the writers, and the steps every call is made of. */
final class Ops {
    private static final Logger log = LoggerFactory.getLogger(Ops.class);

    final EngineSettings settings;
    final ScheduleStore store;
    final MessageLog messageLog;
    final Workers workers;
    final Clock clock;

    Ops(EngineSettings settings, ScheduleStore store, MessageLog messageLog, Workers workers, Clock clock) {
        this.settings = settings;
        this.store = store;
        this.messageLog = messageLog;
        this.workers = workers;
        this.clock = clock;
    }

    int bucketOf(long id) {
        return Buckets.of(id, store.buckets());
    }

    Transition transition(long id, MessageStatus from, MessageStatus to) {
        return Transition.of(id, from, to, clock.millis(), store.bucketName(bucketOf(id)));
    }

    /** Writes a terminal transition and waits for its commit. */
    void commit(Transition transition) {
        workers.journals().durable().commit(transition);
    }

    /** Writes terminal transitions and waits until all are committed (they share transactions). */
    void commitAll(List<Transition> transitions) {
        workers.journals().durable().commitAll(transitions);
    }

    /** Writes a non-terminal transition in the background. */
    void record(Transition transition) {
        workers.journals().background().record(transition);
    }

    /** The stored message, unless it is unknown (404) or already terminal (409). */
    StoredMessage pending(long id, String operation) {
        StoredMessage stored = messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (stored.status().isTerminal()) {
            throw new MessageStateException(id, stored.status(), operation);
        }
        return stored;
    }

    /** Schedules a cold message now, from its MySQL row, for a call that needs it whole in Redis. */
    void warm(int bucket, long id) {
        Optional<StoredMessage> row = messageLog.find(id);
        if (row.isPresent() && !row.get().status().isTerminal()) {
            store.warm(bucket, List.of(row.get().message()));
        }
    }

    /**
     * Puts committed WAIT_PUT messages into their buckets, one script per bucket; a message Redis does not take
     * stays WAIT_PUT for the reconciler.
     */
    void schedule(List<Message> messages) {
        Buckets.positions(messages.stream().map(Message::id).toList(), store.buckets()).forEach((bucket, positions) ->
                schedule(bucket, positions.stream().map(messages::get).toList()));
    }

    private void schedule(int bucket, List<Message> messages) {
        try {
            workers.locks().shared(bucket, () -> {
                store.push(bucket, messages, workers.coldFrom(clock.millis()));
                for (Message message : messages) {
                    record(transition(message.id(), MessageStatus.WAIT_PUT, MessageStatus.DELAY));
                }
                return null;
            });
        } catch (RuntimeException e) {
            log.warn("Redis did not take {} message(s) of bucket {}, the first {} ({}); they stay WAIT_PUT in MySQL "
                    + "until recovery schedules them", messages.size(), bucket, messages.get(0).id(), e.toString());
            return;
        }
        workers.scheduled(bucket, messages.stream().mapToLong(Message::score).min().orElseThrow());
    }
}
