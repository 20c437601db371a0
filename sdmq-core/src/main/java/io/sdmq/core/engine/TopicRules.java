package io.sdmq.core.engine;

import io.sdmq.common.PushRules;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.spi.TopicStore;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This instance's copy of the topics' settings, reloaded from the {@link TopicStore} every second (and at once
 * after a change made here), so that pushes and pops read them from memory: a topic without settings costs one map
 * lookup.
 */
final class TopicRules {
    /** A topic's settings with its push rules made once. */
    record Rules(TopicSettings settings, PushRules pushRules) {
    }

    private final TopicStore store;
    private final PushRules server;
    private volatile Map<String, Rules> topics = Map.of();
    private volatile List<String> inFlightLimited = List.of();
    private volatile Map<String, Long> retentions = Map.of();
    private volatile Map<String, TopicSettings> settings = Map.of();

    TopicRules(TopicStore store, PushRules server) {
        this.store = store;
        this.server = server;
    }

    /** The rules of a topic, or null when it has no settings. */
    Rules of(String topic) {
        return topic == null ? null : topics.get(topic);
    }

    /** Every topic's settings. */
    Map<String, TopicSettings> settings() {
        return settings;
    }

    /** The topics that have an in-flight limit. */
    List<String> inFlightLimited() {
        return inFlightLimited;
    }

    /** The topics with a retention of their own, with it in ms. */
    Map<String, Long> retentions() {
        return retentions;
    }

    /** Reads every topic's settings again. */
    void reload() {
        Map<String, TopicSettings> all = Map.copyOf(store.all());
        Map<String, Rules> loaded = new HashMap<>();
        all.forEach((topic, s) -> loaded.put(topic, new Rules(s, s.pushRules(server))));
        topics = Map.copyOf(loaded);
        settings = all;
        inFlightLimited = loaded.entrySet().stream().filter(e -> e.getValue().settings().maxInFlight() != null)
                .map(Map.Entry::getKey).sorted().toList();
        Map<String, Long> kept = new HashMap<>();
        loaded.forEach((topic, rules) -> {
            if (rules.settings().retention() != null) {
                kept.put(topic, rules.settings().retention());
            }
        });
        retentions = Map.copyOf(kept);
    }
}
