package io.sdmq.core;

import java.util.Map;

/**
 * A topic as operators see it.
 *
 * @param topic    its name
 * @param settings its settings, or null when it has none (the server's defaults apply)
 * @param counts   its messages by status, from MySQL (statuses without messages are left out)
 */
public record TopicView(String topic, TopicSettings settings, Map<String, Long> counts) {
    public TopicView {
        counts = Map.copyOf(counts);
    }
}
