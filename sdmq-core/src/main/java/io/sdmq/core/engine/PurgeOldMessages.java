package io.sdmq.core.engine;

import io.sdmq.core.RecoverySettings;
import io.sdmq.core.spi.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Retention: deletes terminal messages whose last change and due time are both older than the retention period, with
 * their log rows, in small transactions so MySQL is never held long; at most {@link #MAX_BATCHES} batches a pass per
 * retention, and while more remain the next pass follows at once. A topic with a retention of its own is purged by
 * it; every other topic by the server's ({@code 0}: kept forever).
 */
final class PurgeOldMessages implements TimedLoop.Step {
    private static final Logger log = LoggerFactory.getLogger(PurgeOldMessages.class);
    private static final int MAX_BATCHES = 100;
    private static final long INTERVAL_MS = 60_000;

    private final MessageLog messageLog;
    private final RecoverySettings settings;
    private final TopicRules topics;

    PurgeOldMessages(MessageLog messageLog, RecoverySettings settings, TopicRules topics) {
        this.messageLog = messageLog;
        this.settings = settings;
        this.topics = topics;
    }

    @Override
    public long runOnce(long now) {
        Map<String, Long> own = topics.retentions();
        boolean more = false;
        for (Map.Entry<String, Long> topic : own.entrySet()) {
            more |= purge(now - topic.getValue(), topic.getKey(), Set.of(), Duration.ofMillis(topic.getValue()));
        }
        if (!settings.retention().isZero()) {
            more |= purge(now - settings.retention().toMillis(), null, own.keySet(), settings.retention());
        }
        // a backlog larger than a pass goes on at once, so the purge keeps up with any rate of finished messages
        return more ? now : now + INTERVAL_MS;
    }

    /** One pass over one retention; true when more remain. */
    private boolean purge(long cutoff, String topic, Set<String> except, Duration retention) {
        int purged = 0;
        boolean more = true;
        for (int batch = 0; batch < MAX_BATCHES && more; batch++) {
            int deleted = messageLog.purgeTerminal(cutoff, settings.purgeBatch(), topic, except);
            purged += deleted;
            more = deleted == settings.purgeBatch();
        }
        if (purged > 0) {
            log.info("retention: purged {} terminal messages{} older than {}{}", purged,
                    topic == null ? "" : " of topic " + topic, retention, more ? "; more to purge, going on" : "");
        }
        return more;
    }
}
