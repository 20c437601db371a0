package io.sdmq.core.spi;

import io.sdmq.core.TopicSettings;

import java.util.List;
import java.util.Map;

/** The topics' settings, kept durably (a small table every instance reads every second), and their counts. */
public interface TopicStore {

    /** Every topic that has settings. */
    Map<String, TopicSettings> all();

    /** Stores a topic's settings at {@code now}, replacing what it had. */
    void put(String topic, TopicSettings settings, long now);

    /** Pauses or resumes a topic at {@code now}, keeping its other settings (a row with no others when it had none). */
    void pause(String topic, boolean paused, long now);

    /** Drops a topic's settings; false when it had none. */
    boolean delete(String topic);

    /**
     * The names of the topics that have settings or messages, after {@code after} (from the first when it is null), in
     * name order, at most {@code limit}: a page read on the indexes, never the whole table.
     */
    List<String> names(String after, int limit);

    /** Counts of messages by topic and status; of one topic, or of all when {@code topic} is null. */
    Map<String, Map<String, Long>> counts(String topic);
}
