package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import io.sdmq.core.Admin;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import io.sdmq.core.MessagePage;
import io.sdmq.core.MessageSearch;
import io.sdmq.core.MessageView;
import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.spi.BucketSet;
import io.sdmq.core.spi.MessageLog;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/** Looking messages up, bringing a dead or expired one back, the bulk actions, and restores from MySQL. */
final class AdminCalls implements Admin {
    private final MessageLog messageLog;
    private final StatusLog statusLog;
    private final ScheduleCommitted scheduling;
    private final RestoreFromLog restorer;
    private final BucketSet buckets;
    private final Clock clock;
    private final BulkActions bulk;
    private final SearchMessages searches;

    AdminCalls(MessageLog messageLog, StatusLog statusLog, ScheduleCommitted scheduling, RestoreFromLog restorer,
               BucketSet buckets, Clock clock, BulkActions bulk) {
        this.bulk = bulk;
        this.searches = new SearchMessages(messageLog);
        this.messageLog = messageLog;
        this.buckets = buckets;
        this.statusLog = statusLog;
        this.scheduling = scheduling;
        this.restorer = restorer;
        this.clock = clock;
    }

    @Override
    public MessageView message(long id) {
        return new MessageView(find(id), messageLog.history(id));
    }

    @Override
    public List<StoredMessage> messagesByKey(String bizKey) {
        if (bizKey == null || bizKey.isEmpty()) {
            throw new InvalidRequestException("bizKey", "is required");
        }
        return messageLog.findByKey(bizKey);
    }

    @Override
    public Map<Long, String> topicsOf(List<Long> ids) {
        return messageLog.findAll(ids).stream().map(StoredMessage::message)
                .collect(Collectors.toMap(Message::id, Message::topic, (a, b) -> a));
    }

    /** DEAD or EXPIRED back to WAIT_PUT (committed), due now with no attempts, then scheduled like a push. */
    @Override
    public void requeue(long id) {
        StoredMessage stored = find(id);
        if (stored.status() != MessageStatus.DEAD && stored.status() != MessageStatus.EXPIRED) {
            throw new MessageStateException(id, stored.status(), "requeue (only DEAD or EXPIRED messages can be)");
        }
        // the last delivery's background transitions first, so none of them can land on top of the requeue
        statusLog.flushBackground();
        long now = clock.millis();
        statusLog.commit(Transition.of(id, stored.status(), MessageStatus.WAIT_PUT, now,
                buckets.bucketName(Buckets.of(id, buckets.buckets()))).withAttempts(0)
                .withDueTime(now).withNote("requeued by an admin"));
        MessageStatus after = find(id).status();
        if (after != MessageStatus.WAIT_PUT) {
            throw new MessageStateException(id, after, "requeue");
        }
        Message message = stored.message().withAttempts(0).withDueTime(now);
        scheduling.schedule(List.of(message));
    }

    @Override
    public MessagePage search(MessageSearch search) {
        return searches.search(search);
    }

    @Override
    public BulkResult runNow(BulkFilter filter, String caller) {
        return bulk.runNow(filter, caller);
    }

    @Override
    public BulkResult requeue(BulkFilter filter, String caller) {
        return bulk.requeue(filter, caller);
    }

    @Override
    public BulkResult delete(BulkFilter filter, String caller) {
        return bulk.delete(filter, caller);
    }

    @Override
    public BulkResult purge(String topic, String caller) {
        return bulk.purge(topic, caller);
    }

    @Override
    public RestoreCounts restore(boolean expire) {
        return RestoreFromLog.join(restorer.startAll(expire, counts -> { }));
    }

    @Override
    public CompletableFuture<RestoreCounts> startRestore(boolean expire,
                                                         java.util.function.Consumer<RestoreCounts> progress) {
        return restorer.startAll(expire, progress);
    }

    @Override
    public RestoreOutcome restoreMessage(long id, boolean expire) {
        return restorer.restoreMessage(id, expire);
    }

    private StoredMessage find(long id) {
        return messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
    }
}
