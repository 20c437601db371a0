package io.sdmq.core;

import java.util.List;
import java.util.Map;

/**
 * Per-topic settings and pause. A change is seen by this instance at once and by every other within about a second.
 * Every method validates its input and throws a subclass of {@link io.sdmq.common.SdmqException} naming what is wrong.
 */
public interface Topics {

    /** Every topic that has settings or messages, by name. */
    List<TopicView> list();

    /**
     * A page of {@link #list()}: the topics after {@code after} by name (from the first when it is null), at most
     * {@code limit} (1..1000), each with its settings and counts; the last name of a full page asks for the next.
     */
    List<TopicView> page(String after, int limit);

    /** One topic, whether or not it has settings or messages. */
    TopicView get(String topic);

    /** Replaces a topic's settings, its pause included; answers what is stored. */
    TopicView put(String topic, TopicSettings settings);

    /** Drops a topic's settings (back to the server's defaults, not paused); its messages are untouched. */
    boolean delete(String topic);

    /**
     * This instance's copy of the settings of every topic that has any, read from memory: reloaded every second and
     * at once after a change made here.
     */
    Map<String, TopicSettings> current();

    /** Pauses (true) or resumes (false) handing out the topic's messages; its other settings are kept. */
    TopicView pause(String topic, boolean paused);
}
