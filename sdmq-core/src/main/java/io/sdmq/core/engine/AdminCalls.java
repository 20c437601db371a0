package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.core.JobView;

import java.util.List;

/** Looking a message up, and bringing a dead or expired one back. */
final class AdminCalls {
    private final Ops ops;

    AdminCalls(Ops ops) {
        this.ops = ops;
    }

    JobView job(long id) {
        StoredMessage stored = ops.messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        return new JobView(stored, ops.messageLog.history(id));
    }

    /** DEAD or EXPIRED back to WAIT_PUT (committed), due now with no attempts, then scheduled like a push. */
    void requeue(long id) {
        StoredMessage stored = ops.messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (stored.status() != MessageStatus.DEAD && stored.status() != MessageStatus.EXPIRED) {
            throw new MessageStateException(id, stored.status(), "requeue (only DEAD or EXPIRED messages can be)");
        }
        // the last delivery's background transitions first, so none of them can land on top of the requeue
        ops.workers.journals().background().flush();
        long now = ops.clock.millis();
        ops.commit(ops.transition(id, stored.status(), MessageStatus.WAIT_PUT).withAttempts(0).withDueTime(now)
                .withNote("requeued by an admin"));
        StoredMessage after = ops.messageLog.find(id).orElseThrow(() -> new MessageNotFoundException(id));
        if (after.status() != MessageStatus.WAIT_PUT) {
            throw new MessageStateException(id, after.status(), "requeue");
        }
        Message message = stored.message().withAttempts(0).withDueTime(now);
        ops.schedule(List.of(message));
    }
}
