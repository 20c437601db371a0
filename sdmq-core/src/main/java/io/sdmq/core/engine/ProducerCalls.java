package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.Producer;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.Schedule;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Push (one or a batch), delete, reschedule and replace: MySQL first, then the bucket's script. */
final class ProducerCalls implements Producer {
    private final NewMessages newMessages;
    private final StatusLog statusLog;
    private final ScheduleCommitted scheduling;
    private final Schedule schedule;
    private final MessageLog messageLog;
    private final Wakeups wakeups;
    private final MessageEvents events;
    private final Clock clock;

    ProducerCalls(NewMessages newMessages, StatusLog statusLog, ScheduleCommitted scheduling, Schedule schedule,
                  MessageLog messageLog, Wakeups wakeups, MessageEvents events, Clock clock) {
        this.newMessages = newMessages;
        this.statusLog = statusLog;
        this.scheduling = scheduling;
        this.schedule = schedule;
        this.messageLog = messageLog;
        this.wakeups = wakeups;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public PushResult push(PushRequest request, OnDuplicate onDuplicate) {
        return pushAll(List.of(newMessages.of(request)), onDuplicate).get(0);
    }

    @Override
    public List<PushResult> pushBatch(List<PushRequest> requests, OnDuplicate onDuplicate) {
        return pushAll(newMessages.ofAll(requests), onDuplicate);
    }

    /**
     * Commits the messages, schedules those created (one script per bucket), then settles those whose business key
     * another message holds, in order, so a replace within a batch finds its holder scheduled.
     */
    private List<PushResult> pushAll(List<Message> messages, OnDuplicate onDuplicate) {
        List<Long> holders = statusLog.insert(messages);
        List<Message> created = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            if (holders.get(i) == messages.get(i).id()) {
                created.add(messages.get(i));
            }
        }
        scheduling.schedule(created);
        created.forEach(m -> events.pushed(m.topic()));
        List<PushResult> results = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            long holder = holders.get(i);
            if (holder == messages.get(i).id()) {
                results.add(new PushResult(holder, PushOutcome.CREATED));
            } else if (onDuplicate == OnDuplicate.REPLACE) {
                replace(holder, messages.get(i));
                results.add(new PushResult(holder, PushOutcome.REPLACED));
            } else {
                results.add(new PushResult(holder, PushOutcome.DUPLICATE));
            }
        }
        return results;
    }

    /** Debounce: the pending holder of a business key takes the new body and due time, atomically in Redis. */
    private void replace(long id, Message update) {
        int bucket = Buckets.of(id, schedule.buckets());
        Optional<MessageStatus> where = reschedule(bucket, id, update.dueTime(), update.body());
        if (where.isEmpty() || where.get() != MessageStatus.DELAY) {
            throw new MessageStateException(id, statusOf(id, where, "replace"), "replace");
        }
        messageLog.replace(id, update.body(), update.dueTime(), Transition.of(id, MessageStatus.DELAY,
                MessageStatus.DELAY, clock.millis(), schedule.bucketName(bucket)).withNote("replaced by a push"));
        wakeups.scheduled(bucket, update.dueTime());
    }

    @Override
    public void delete(long id) {
        int bucket = Buckets.of(id, schedule.buckets());
        Optional<MessageStatus> was = schedule.delete(bucket, id, clock.millis());
        // timed after the script: a pop just before it may have logged a later time than one read before it, and the
        // status log keeps the latest change
        long now = clock.millis();
        if (was.isPresent()) {
            statusLog.commit(Transition.of(id, was.get(), MessageStatus.DELETED, now, schedule.bucketName(bucket)));
            return;
        }
        StoredMessage stored = Pending.require(messageLog, id, "delete");
        statusLog.commit(Transition.of(id, stored.status(), MessageStatus.DELETED, now, schedule.bucketName(bucket))
                .withNote("not in Redis"));
    }

    @Override
    public void deleteByKey(String topic, String bizKey) {
        PushRules.checkTopic("topic", topic);
        if (bizKey == null || bizKey.isEmpty()) {
            throw new InvalidRequestException("bizKey", "is required with topic");
        }
        delete(messageLog.findIdByKey(topic, bizKey).orElseThrow(() -> new MessageNotFoundException(topic, bizKey)));
    }

    @Override
    public long reschedule(long id, Long delay, Long deliverAt) {
        long due = newMessages.dueTime(delay, deliverAt);
        int bucket = Buckets.of(id, schedule.buckets());
        Optional<MessageStatus> where = reschedule(bucket, id, due, null);
        if (where.isEmpty() || where.get() != MessageStatus.DELAY) {
            throw new MessageStateException(id, statusOf(id, where, "reschedule"), "reschedule");
        }
        recordMove(bucket, id, due, "rescheduled");
        return due;
    }

    /**
     * Moves a message that is still in its bucket's delay zset to {@code due}, noted as {@code note}; false, changing
     * nothing, when it is past DELAY or gone (a bulk run-now's step).
     */
    boolean runAt(long id, long due, String note) {
        int bucket = Buckets.of(id, schedule.buckets());
        Optional<MessageStatus> where = reschedule(bucket, id, due, null);
        if (where.isEmpty() || where.get() != MessageStatus.DELAY) {
            return false;
        }
        recordMove(bucket, id, due, note);
        return true;
    }

    private void recordMove(int bucket, long id, long due, String note) {
        statusLog.record(Transition.of(id, MessageStatus.DELAY, MessageStatus.DELAY, clock.millis(),
                schedule.bucketName(bucket)).withDueTime(due).withNote(note));
        wakeups.scheduled(bucket, due);
    }

    /**
     * The schedule's reschedule, and once more when Redis lacked the message's meta: it may have been cold, and then
     * it is warm now, by this call or by the warmer in between.
     */
    private Optional<MessageStatus> reschedule(int bucket, long id, long dueTime, String body) {
        Optional<MessageStatus> where = schedule.reschedule(bucket, id, dueTime, body);
        if (where.isPresent()) {
            return where;
        }
        Optional<StoredMessage> row = messageLog.find(id);
        if (row.isPresent() && !row.get().status().isTerminal()) {
            schedule.warm(bucket, List.of(row.get().message()));
        }
        return schedule.reschedule(bucket, id, dueTime, body);
    }

    /** Where a message is that a call could not move: in Redis past DELAY, or as MySQL has it. */
    private MessageStatus statusOf(long id, Optional<MessageStatus> inRedis, String operation) {
        return inRedis.orElseGet(() -> Pending.require(messageLog, id, operation).status());
    }
}
