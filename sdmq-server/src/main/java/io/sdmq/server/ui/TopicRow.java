package io.sdmq.server.ui;

import io.sdmq.common.MessageStatus;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.TopicView;
import io.sdmq.server.delivery.DeliveryTargets;
import io.sdmq.server.metrics.TopicStats;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A topic as the dashboard lists it: its counts by status, backlog, pause and delivery target.
 *
 * @param topic        its name
 * @param counts       messages per status, every status in the state machine's order (0 where none)
 * @param ready        ready messages in Redis
 * @param oldestDueAge ms since the oldest due message not yet handed out was due; 0 if none
 * @param paused       whether it hands nothing out
 * @param delivery     where due messages go: {@code pull} (consumers poll) or the delivery's type
 */
record TopicRow(String topic, List<Count> counts, long ready, long oldestDueAge, boolean paused, String delivery) {

    /** Every status's name, in the state machine's order: the list's columns. */
    static final List<String> STATUSES = Arrays.stream(MessageStatus.values()).map(Enum::name).toList();

    record Count(String status, long messages) {
    }

    static TopicRow of(TopicView view, TopicStats.Backlog backlog) {
        Map<String, Long> counts = view.counts();
        TopicSettings s = view.settings() == null ? TopicSettings.NONE : view.settings();
        return new TopicRow(view.topic(), STATUSES.stream().map(st -> new Count(st, counts.getOrDefault(st, 0L)))
                .toList(), backlog.ready(), backlog.oldestDueAge(), s.paused(),
                s.delivery() == null ? DeliveryTargets.PULL : String.valueOf(s.delivery().get("type")));
    }
}
