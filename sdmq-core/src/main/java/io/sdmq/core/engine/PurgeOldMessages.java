package io.sdmq.core.engine;

import io.sdmq.core.RecoverySettings;
import io.sdmq.core.spi.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention: deletes terminal messages whose last change and due time are both older than the retention period, with
 * their log rows, in small transactions so MySQL is never held long; at most {@link #MAX_BATCHES} batches a pass,
 * and while more remain the next pass follows at once.
 */
final class PurgeOldMessages implements TimedLoop.Step {
    private static final Logger log = LoggerFactory.getLogger(PurgeOldMessages.class);
    private static final int MAX_BATCHES = 100;
    private static final long INTERVAL_MS = 60_000;

    private final MessageLog messageLog;
    private final RecoverySettings settings;

    PurgeOldMessages(MessageLog messageLog, RecoverySettings settings) {
        this.messageLog = messageLog;
        this.settings = settings;
    }

    @Override
    public long runOnce(long now) {
        long cutoff = now - settings.retention().toMillis();
        int purged = 0;
        boolean more = true;
        for (int batch = 0; batch < MAX_BATCHES && more; batch++) {
            int deleted = messageLog.purgeTerminal(cutoff, settings.purgeBatch());
            purged += deleted;
            more = deleted == settings.purgeBatch();
        }
        if (purged > 0) {
            log.info("retention: purged {} terminal messages older than {}{}", purged, settings.retention(),
                    more ? "; more to purge, going on" : "");
        }
        // a backlog larger than a pass goes on at once, so the purge keeps up with any rate of finished messages
        return more ? now : now + INTERVAL_MS;
    }
}
