package io.sdmq.core.engine;

import io.sdmq.common.StoredMessage;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.spi.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The reconciler: schedules messages still WAIT_PUT (Redis was down when they were pushed) and puts back scheduled
 * messages overdue by more than the grace period that Redis no longer holds. Overdue rows are walked by id in
 * bounded pages, one page a pass, so a large backlog of ready messages costs a bounded amount of work each time.
 */
final class ReconcileWithLog implements TimedLoop.Step {
    private static final Logger log = LoggerFactory.getLogger(ReconcileWithLog.class);
    private static final int PAGE = 1_000;

    private final MessageLog messageLog;
    private final RestoreFromLog restore;
    private final RecoverySettings settings;
    private long overdueCursor;

    ReconcileWithLog(MessageLog messageLog, RestoreFromLog restore, RecoverySettings settings) {
        this.messageLog = messageLog;
        this.restore = restore;
        this.settings = settings;
    }

    @Override
    public long runOnce(long now) {
        int scheduled = restoreAll(messageLog.findWaitPut(now - settings.waitPutAge().toMillis(), PAGE), now);
        List<StoredMessage> overdue = messageLog.findOverdue(now - settings.grace().toMillis(), overdueCursor, PAGE);
        int repaired = restoreAll(overdue, now);
        overdueCursor = overdue.size() < PAGE ? 0 : overdue.get(overdue.size() - 1).message().id();
        if (scheduled + repaired > 0) {
            log.info("reconciler put {} WAIT_PUT and {} overdue messages (missing from Redis) into Redis",
                    scheduled, repaired);
        }
        return now + settings.reconcileInterval().toMillis();
    }

    private int restoreAll(List<StoredMessage> rows, long now) {
        return (int) restore.restoreRows(rows, true, now).stream().filter(o -> o == RestoreOutcome.RESTORED).count();
    }
}
