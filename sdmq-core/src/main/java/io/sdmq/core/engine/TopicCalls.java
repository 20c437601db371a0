package io.sdmq.core.engine;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRules;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.TopicView;
import io.sdmq.core.Topics;
import io.sdmq.core.spi.TopicStore;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Topic settings and pause: MySQL keeps them, this instance's {@link TopicRules} is reloaded after each change. */
final class TopicCalls implements Topics {
    /** The most topics a page holds. */
    static final int MAX_PAGE = 1000;

    private final TopicStore store;
    private final TopicRules rules;
    private final PushRules server;
    private final Clock clock;

    TopicCalls(TopicStore store, TopicRules rules, PushRules server, Clock clock) {
        this.store = store;
        this.rules = rules;
        this.server = server;
        this.clock = clock;
    }

    @Override
    public List<TopicView> list() {
        Map<String, TopicSettings> settings = store.all();
        Map<String, Map<String, Long>> counts = store.counts(null);
        TreeSet<String> names = new TreeSet<>(settings.keySet());
        names.addAll(counts.keySet());
        return names.stream().map(t -> new TopicView(t, settings.get(t), counts.getOrDefault(t, Map.of()))).toList();
    }

    @Override
    public List<TopicView> page(String after, int limit) {
        if (after != null) {
            PushRules.checkTopic("after", after);
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "must be between 1 and " + MAX_PAGE);
        }
        Map<String, TopicSettings> settings = rules.settings();
        return store.names(after, limit).stream().map(t -> new TopicView(t, settings.get(t),
                store.counts(t).getOrDefault(t, Map.of()))).toList();
    }

    @Override
    public TopicView get(String topic) {
        PushRules.checkTopic("topic", topic);
        return new TopicView(topic, store.all().get(topic), store.counts(topic).getOrDefault(topic, Map.of()));
    }

    @Override
    public TopicView put(String topic, TopicSettings settings) {
        PushRules.checkTopic("topic", topic);
        store.put(topic, settings.check(server), clock.millis());
        rules.reload();
        return get(topic);
    }

    @Override
    public boolean delete(String topic) {
        PushRules.checkTopic("topic", topic);
        boolean deleted = store.delete(topic);
        rules.reload();
        return deleted;
    }

    @Override
    public Map<String, TopicSettings> current() {
        return rules.settings();
    }

    @Override
    public TopicView pause(String topic, boolean paused) {
        PushRules.checkTopic("topic", topic);
        store.pause(topic, paused, clock.millis());
        rules.reload();
        return get(topic);
    }
}
