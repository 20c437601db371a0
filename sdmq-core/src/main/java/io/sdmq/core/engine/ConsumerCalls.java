package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;
import io.sdmq.common.SdmqException;
import io.sdmq.common.Transition;
import io.sdmq.common.TooManyRequestsException;
import io.sdmq.core.spi.ScheduleStore.Nacked;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** Pop, finish, nack and touch: Redis decides (is it reserved?), MySQL records. */
final class ConsumerCalls {
    private static final String NOT_RESERVED = "is not reserved (not popped yet, or its time-to-run expired)";

    private final Ops ops;

    ConsumerCalls(Ops ops) {
        this.ops = ops;
    }

    CompletableFuture<List<Message>> pop(String topic, int count, Duration timeout) {
        PushRules.checkTopic("topic", topic);
        if (count < 1 || count > ops.settings.maxPopCount()) {
            throw new InvalidRequestException("count", "must be in 1.." + ops.settings.maxPopCount());
        }
        if (timeout.isNegative() || timeout.compareTo(ops.settings.maxWait()) > 0) {
            throw new InvalidRequestException("timeout", "must be in 0.." + ops.settings.maxWait().toMillis() + " ms");
        }
        if (ops.workers.consumers().waiting(topic) >= ops.settings.maxWaitingPerTopic()) {
            throw new TooManyRequestsException("topic " + topic + " already has " + ops.settings.maxWaitingPerTopic()
                    + " waiting consumers on this instance; retry later");
        }
        return ops.workers.consumers().pop(topic, count, timeout.toMillis());
    }

    void finish(long id) {
        if (ops.store.finish(ops.bucketOf(id), id, ops.clock.millis())) {
            ops.commit(ops.transition(id, MessageStatus.RESERVED, MessageStatus.FINISHED));
            return;
        }
        ops.pending(id, "finish");
        throw new MessageStateException(id, NOT_RESERVED);
    }

    /**
     * Finishes many reservations with one group commit; per id, empty or why it could not be finished. When a
     * bucket's script fails (Redis down), the finishes earlier buckets' scripts made are still recorded before the
     * failure is thrown, so MySQL never holds as reserved what Redis has already finished.
     */
    List<Optional<SdmqException>> finishAll(List<Long> ids) {
        long now = ops.clock.millis();
        boolean[] reserved = new boolean[ids.size()];
        List<Transition> finished = new ArrayList<>(ids.size());
        for (Map.Entry<Integer, List<Integer>> bucket : Buckets.positions(ids, ops.store.buckets()).entrySet()) {
            List<Integer> indexes = bucket.getValue();
            List<Boolean> done;
            try {
                done = ops.store.finish(bucket.getKey(), indexes.stream().map(ids::get).toList(), now);
            } catch (RuntimeException e) {
                try {
                    ops.commitAll(finished);
                } catch (RuntimeException unrecorded) {
                    e.addSuppressed(unrecorded);
                }
                throw e;
            }
            for (int j = 0; j < indexes.size(); j++) {
                int i = indexes.get(j);
                reserved[i] = done.get(j);
                if (reserved[i]) {
                    finished.add(ops.transition(ids.get(i), MessageStatus.RESERVED, MessageStatus.FINISHED));
                }
            }
        }
        List<Optional<SdmqException>> results = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            results.add(reserved[i] ? Optional.empty() : Optional.of(whyNotFinishable(ids.get(i))));
        }
        ops.commitAll(finished);
        return results;
    }

    private SdmqException whyNotFinishable(long id) {
        try {
            ops.pending(id, "finish");
            return new MessageStateException(id, NOT_RESERVED);
        } catch (SdmqException e) {
            return e;
        }
    }

    void nack(long id, Long delay) {
        if (delay != null && (delay < 0 || delay > ops.settings.pushRules().maxDelayMs())) {
            throw new InvalidRequestException("delay",
                    "must be in 0.." + ops.settings.pushRules().maxDelayMs() + " ms");
        }
        int bucket = ops.bucketOf(id);
        Optional<Nacked> nacked = ops.store.nack(bucket, id, ops.clock.millis(), delay);
        if (nacked.isEmpty()) {
            ops.pending(id, "nack");
            throw new MessageStateException(id, NOT_RESERVED);
        }
        Message m = nacked.get().message();
        if (nacked.get().dead()) {
            ops.commit(ops.transition(id, MessageStatus.RESERVED, MessageStatus.DEAD).withAttempts(m.attempts())
                    .withNote("nack, attempts exhausted"));
            return;
        }
        ops.record(ops.transition(id, MessageStatus.RESERVED, MessageStatus.DELAY).withAttempts(m.attempts())
                .withDueTime(m.dueTime()).withNote("nack"));
        ops.workers.scheduled(bucket, m.score());
    }

    long touch(long id) {
        OptionalLong deadline = ops.store.touch(ops.bucketOf(id), id, ops.clock.millis());
        if (deadline.isEmpty()) {
            ops.pending(id, "touch");
            throw new MessageStateException(id, NOT_RESERVED);
        }
        ops.record(ops.transition(id, MessageStatus.RESERVED, MessageStatus.RESERVED)
                .withNote("touch: reserved until " + deadline.getAsLong()));
        return deadline.getAsLong();
    }
}
