package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;
import io.sdmq.common.SdmqException;
import io.sdmq.common.TooManyRequestsException;
import io.sdmq.common.Transition;
import io.sdmq.core.Consumer;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.Reservations;
import io.sdmq.core.spi.Reservations.Nacked;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Pop, finish, nack and touch: Redis decides (is it reserved?), MySQL records. */
final class ConsumerCalls implements Consumer {
    private static final Logger log = LoggerFactory.getLogger(ConsumerCalls.class);
    /** The status log's note column holds 255 characters. */
    private static final int MAX_NOTE = 255;
    private static final String NOT_RESERVED = "is not reserved (not popped yet, or its time-to-run expired)";

    private final EngineSettings settings;
    private final WaitingConsumers waiting;
    private final Reservations reservations;
    private final StatusLog statusLog;
    private final MessageLog messageLog;
    private final Wakeups wakeups;
    private final MessageEvents events;
    private final TopicGate gate;
    private final Clock clock;

    ConsumerCalls(EngineSettings settings, WaitingConsumers waiting, Reservations reservations, StatusLog statusLog,
                  MessageLog messageLog, Wakeups wakeups, MessageEvents events, TopicGate gate, Clock clock) {
        this.settings = settings;
        this.waiting = waiting;
        this.reservations = reservations;
        this.statusLog = statusLog;
        this.messageLog = messageLog;
        this.wakeups = wakeups;
        this.events = events;
        this.gate = gate;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout, Duration linger) {
        checkPop(topic, count, timeout, linger);
        return waiting.pop(topic, count, timeout.toMillis(), linger.toMillis(), 0);
    }

    @Override
    public CompletableFuture<List<Message>> popReserved(String topic, int count, Duration timeout,
                                                        Duration reservation) {
        checkPop(topic, count, timeout, Duration.ZERO);
        return waiting.pop(topic, count, timeout.toMillis(), 0, reservation.toMillis());
    }

    @Override
    public FinishedAndPopped finishAndPop(List<Long> ids, String topic, int count, Duration timeout,
                                          Duration linger) {
        checkPop(topic, count, timeout, linger);
        List<Optional<SdmqException>> finished = ids.isEmpty() ? List.of() : finishAll(ids);
        return new FinishedAndPopped(finished, waiting.pop(topic, count, timeout.toMillis(), linger.toMillis(),
                0));
    }

    private void checkPop(String topic, int count, Duration timeout, Duration linger) {
        PushRules.checkTopic("topic", topic);
        if (count < 1 || count > settings.maxPopCount()) {
            throw new InvalidRequestException("count", "must be in 1.." + settings.maxPopCount());
        }
        if (timeout.isNegative() || timeout.compareTo(settings.maxWait()) > 0) {
            throw new InvalidRequestException("timeout", "must be in 0.." + settings.maxWait().toMillis() + " ms");
        }
        if (linger.isNegative() || linger.compareTo(settings.maxPopLinger()) > 0) {
            throw new InvalidRequestException("linger", "must be in 0.." + settings.maxPopLinger().toMillis() + " ms");
        }
        if (waiting.waiting(topic) >= settings.maxWaitingPerTopic()) {
            throw new TooManyRequestsException("topic " + topic + " already has " + settings.maxWaitingPerTopic()
                    + " waiting consumers on this instance; retry later");
        }
    }

    @Override
    public void finish(long id) {
        finishAll(List.of(id)).get(0).ifPresent(e -> {
            throw e;
        });
    }

    /**
     * Finishes many reservations, their buckets' scripts in one Redis round trip, with one group commit; per id, empty
     * or why it could not be finished. When a bucket's script fails (Redis down), the finishes the other buckets'
     * scripts made are still recorded before the failure is thrown, so MySQL never holds as reserved what Redis has
     * already finished.
     */
    @Override
    public List<Optional<SdmqException>> finishAll(List<Long> ids) {
        return finishAll(ids, true);
    }

    @Override
    public List<Optional<SdmqException>> finishDelivered(List<Long> ids) {
        return finishAll(ids, false);
    }

    private List<Optional<SdmqException>> finishAll(List<Long> ids, boolean durable) {
        long now = clock.millis();
        Map<Integer, List<Integer>> positions = Buckets.positions(ids, reservations.buckets());
        int[] buckets = positions.keySet().stream().mapToInt(Integer::intValue).toArray();
        List<List<Integer>> indexes = List.copyOf(positions.values());
        List<Supplier<List<Optional<String>>>> done = reservations.finishEach(buckets,
                indexes.stream().map(at -> at.stream().map(ids::get).toList()).toList(), now);
        boolean[] reserved = new boolean[ids.size()];
        List<Transition> finished = new ArrayList<>(ids.size());
        Map<String, List<Long>> byTopic = new HashMap<>();
        RuntimeException failure = null;
        for (int b = 0; b < buckets.length; b++) {
            List<Optional<String>> topics;
            try {
                topics = done.get(b).get();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
                continue;
            }
            for (int j = 0; j < topics.size(); j++) {
                int i = indexes.get(b).get(j);
                reserved[i] = topics.get(j).isPresent();
                if (reserved[i]) {
                    events.finished(topics.get(j).get());
                    byTopic.computeIfAbsent(topics.get(j).get(), t -> new ArrayList<>()).add(ids.get(i));
                    finished.add(Transition.of(ids.get(i), MessageStatus.RESERVED, MessageStatus.FINISHED, now,
                            reservations.bucketName(buckets[b])));
                }
            }
        }
        if (failure != null) {
            writeBeforeFailing(finished, durable, failure);
            throw failure;
        }
        List<Optional<SdmqException>> results = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            results.add(reserved[i] ? Optional.empty() : Optional.of(whyNotReserved(ids.get(i), "finish")));
        }
        write(finished, durable);
        released(byTopic);
        return results;
    }

    /** Tells the in-flight limits which reservations ended; a failure only delays their slots to the deadline. */
    private void released(Map<String, List<Long>> byTopic) {
        if (byTopic.isEmpty()) {
            return;
        }
        try {
            gate.finished(byTopic).forEach(waiting::retry);
        } catch (RuntimeException e) {
            log.warn("could not release finished reservations of topics {} from their limits ({}); their slots free "
                    + "up at their deadlines", byTopic.keySet(), e.toString());
        }
    }

    private void write(List<Transition> finished, boolean durable) {
        if (durable) {
            statusLog.commitAll(finished);
        } else {
            finished.forEach(statusLog::record);
        }
    }

    private void writeBeforeFailing(List<Transition> finished, boolean durable, RuntimeException failure) {
        try {
            write(finished, durable);
        } catch (RuntimeException unrecorded) {
            failure.addSuppressed(unrecorded);
        }
    }

    private SdmqException whyNotReserved(long id, String operation) {
        try {
            Pending.require(messageLog, id, operation);
            return new MessageStateException(id, NOT_RESERVED);
        } catch (SdmqException e) {
            return e;
        }
    }

    @Override
    public void nack(long id, Long delay) {
        nack(id, delay, false, null);
    }

    @Override
    public void nackAsDead(long id) {
        nack(id, null, true, null);
    }

    @Override
    public void nack(long id, Long delay, boolean dead, String note) {
        long maxDelay = settings.pushRules().maxDelayMs();
        if (delay != null && (delay < 0 || delay > maxDelay)) {
            throw new InvalidRequestException("delay", "must be in 0.." + maxDelay + " ms");
        }
        String said = note == null || note.length() <= MAX_NOTE ? note : note.substring(0, MAX_NOTE);
        int bucket = Buckets.of(id, reservations.buckets());
        long now = clock.millis();
        Nacked nacked = reservations.nack(bucket, id, now, delay, dead).orElseThrow(() -> whyNotReserved(id, "nack"));
        Message m = nacked.message();
        events.nacked(m.topic());
        try {
            gate.nacked(m);
            waiting.retry(m.topic());
        } catch (RuntimeException e) {
            log.warn("could not release nacked message {} from its topic's limits ({}); its slot frees up at its "
                    + "deadline", id, e.toString());
        }
        Transition base = Transition.of(id, MessageStatus.RESERVED, nacked.dead() ? MessageStatus.DEAD
                : MessageStatus.DELAY, now, reservations.bucketName(bucket)).withAttempts(m.attempts());
        if (nacked.dead()) {
            events.dead(m.topic());
            statusLog.commit(base.withNote(said != null ? said
                    : dead ? "nack as dead: the consumer gave up" : "nack, attempts exhausted"));
            return;
        }
        statusLog.record(base.withDueTime(m.dueTime()).withNote(said != null ? said : "nack"));
        wakeups.scheduled(bucket, m.score());
    }

    @Override
    public long touch(long id) {
        int bucket = Buckets.of(id, reservations.buckets());
        long now = clock.millis();
        OptionalLong deadline = reservations.touch(bucket, id, now);
        if (deadline.isEmpty()) {
            throw whyNotReserved(id, "touch");
        }
        try {
            gate.touched(id, deadline.getAsLong());
        } catch (RuntimeException e) {
            log.warn("could not extend message {} in its topic's limits ({})", id, e.toString());
        }
        statusLog.record(Transition.of(id, MessageStatus.RESERVED, MessageStatus.RESERVED, now,
                reservations.bucketName(bucket)).withNote("touch: reserved until " + deadline.getAsLong()));
        return deadline.getAsLong();
    }
}
