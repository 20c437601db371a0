package io.sdmq.core.engine;

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
import io.sdmq.core.DelayQueue.OnDuplicate;
import io.sdmq.core.DelayQueue.PushOutcome;
import io.sdmq.core.DelayQueue.PushResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Push (one or a batch), delete, reschedule and replace: MySQL first, then the bucket's script. */
final class ProducerCalls {
    static final int MAX_BATCH = 1_000;

    private final Ops ops;
    private final IdGenerator ids;

    ProducerCalls(Ops ops, IdGenerator ids) {
        this.ops = ops;
        this.ids = ids;
    }

    PushResult push(PushRequest request, OnDuplicate onDuplicate) {
        Message message = ops.settings.pushRules().toMessage(request, ids.nextId(), ops.clock.millis());
        return land(List.of(message), List.of(ops.workers.journals().durable().insert(message)), onDuplicate).get(0);
    }

    List<PushResult> pushBatch(List<PushRequest> requests, OnDuplicate onDuplicate) {
        if (requests == null || requests.isEmpty() || requests.size() > MAX_BATCH) {
            throw new InvalidRequestException("messages", "must hold 1.." + MAX_BATCH + " messages");
        }
        List<Message> messages = new ArrayList<>(requests.size());
        List<String> errors = new ArrayList<>();
        long now = ops.clock.millis();
        for (int i = 0; i < requests.size(); i++) {
            try {
                messages.add(ops.settings.pushRules().toMessage(requests.get(i), ids.nextId(), now));
            } catch (InvalidRequestException e) {
                errors.add("[" + i + "]." + e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("messages", String.join("; ", errors));
        }
        return land(messages, ops.workers.journals().durable().insertAll(messages), onDuplicate);
    }

    /**
     * Schedules the committed messages (one script per bucket), then settles those whose business key another
     * message holds, in order, so a replace within a batch finds its holder scheduled.
     */
    private List<PushResult> land(List<Message> messages, List<Long> holders, OnDuplicate onDuplicate) {
        List<Message> created = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            if (holders.get(i) == messages.get(i).id()) {
                created.add(messages.get(i));
            }
        }
        ops.schedule(created);
        List<PushResult> results = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            long holder = holders.get(i);
            Message message = messages.get(i);
            if (holder == message.id()) {
                results.add(new PushResult(holder, PushOutcome.CREATED));
            } else if (onDuplicate == OnDuplicate.REPLACE) {
                replace(holder, message);
                results.add(new PushResult(holder, PushOutcome.REPLACED));
            } else {
                results.add(new PushResult(holder, PushOutcome.DUPLICATE));
            }
        }
        return results;
    }

    /** Debounce: the pending holder of a business key takes the new body and due time, atomically in Redis. */
    private void replace(long id, Message update) {
        int bucket = ops.bucketOf(id);
        Optional<MessageStatus> where = reschedule(bucket, id, update.dueTime(), update.body());
        if (where.isEmpty() || where.get() != MessageStatus.DELAY) {
            throw new MessageStateException(id, where.orElseGet(() -> ops.pending(id, "replace").status()), "replace");
        }
        ops.messageLog.replace(id, update.body(), update.dueTime(),
                ops.transition(id, MessageStatus.DELAY, MessageStatus.DELAY).withNote("replaced by a push"));
        ops.workers.scheduled(bucket, update.dueTime());
    }

    /**
     * The store's reschedule, and once more when Redis lacked the message's meta: it may have been cold, and then it
     * is warm now, by this call or by the warmer in between.
     */
    private Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body) {
        Optional<MessageStatus> where = ops.store.reschedule(bucket, id, dueTime, body);
        if (where.isPresent()) {
            return where;
        }
        ops.warm(bucket, id);
        return ops.store.reschedule(bucket, id, dueTime, body);
    }

    void delete(long id) {
        int bucket = ops.bucketOf(id);
        Optional<MessageStatus> was = ops.store.delete(bucket, id, ops.clock.millis());
        if (was.isPresent()) {
            ops.commit(ops.transition(id, was.get(), MessageStatus.DELETED));
            return;
        }
        StoredMessage stored = ops.pending(id, "delete");
        ops.commit(ops.transition(id, stored.status(), MessageStatus.DELETED).withNote("not in Redis"));
    }

    void deleteByKey(String topic, String bizKey) {
        PushRules.checkTopic("topic", topic);
        if (bizKey == null || bizKey.isEmpty()) {
            throw new InvalidRequestException("bizKey", "is required with topic");
        }
        delete(ops.messageLog.findIdByKey(topic, bizKey)
                .orElseThrow(() -> new MessageNotFoundException(topic, bizKey)));
    }

    long reschedule(long id, Long delay, Long deliverAt) {
        long due = ops.settings.pushRules().dueTime(delay, deliverAt, ops.clock.millis());
        int bucket = ops.bucketOf(id);
        Optional<MessageStatus> where = reschedule(bucket, id, due, null);
        if (where.isPresent() && where.get() == MessageStatus.DELAY) {
            ops.record(ops.transition(id, MessageStatus.DELAY, MessageStatus.DELAY).withDueTime(due)
                    .withNote("rescheduled"));
            ops.workers.scheduled(bucket, due);
            return due;
        }
        throw new MessageStateException(id, where.orElseGet(() -> ops.pending(id, "reschedule").status()),
                "reschedule");
    }
}
