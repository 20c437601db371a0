package io.sdmq.server.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code topic} tag of a topic's meters: its own name for the first {@code maxTopics} topics this instance sees,
 * {@link #OTHER} for every topic after them, so the number of series stays bounded. A topic keeps its tag for the
 * life of the instance.
 */
final class TopicTags {
    static final String OTHER = "other";

    private final int maxTopics;
    private final Map<String, String> tags = new ConcurrentHashMap<>();

    TopicTags(int maxTopics) {
        this.maxTopics = maxTopics;
    }

    String of(String topic) {
        String tag = tags.get(topic);
        return tag != null ? tag : admit(topic);
    }

    private synchronized String admit(String topic) {
        String tag = tags.get(topic);
        if (tag != null) {
            return tag;
        }
        if (tags.size() >= maxTopics) {
            return OTHER;
        }
        tags.put(topic, topic);
        return topic;
    }
}
