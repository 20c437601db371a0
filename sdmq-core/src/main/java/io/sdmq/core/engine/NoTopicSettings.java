package io.sdmq.core.engine;

import io.sdmq.core.TopicSettings;
import io.sdmq.core.spi.TopicStore;

import java.util.List;
import java.util.Map;

/**
 * The topic store of an engine built without one: no topic has settings, so every topic behaves by the server's
 * defaults and no limit is ever asked; a change is refused.
 */
final class NoTopicSettings implements TopicStore {

    @Override
    public Map<String, TopicSettings> all() {
        return Map.of();
    }

    @Override
    public void put(String topic, TopicSettings settings, long now) {
        throw new UnsupportedOperationException("this engine was built without a topic store");
    }

    @Override
    public void pause(String topic, boolean paused, long now) {
        throw new UnsupportedOperationException("this engine was built without a topic store");
    }

    @Override
    public boolean delete(String topic) {
        return false;
    }

    @Override
    public List<String> names(String after, int limit) {
        return List.of();
    }

    @Override
    public Map<String, Map<String, Long>> counts(String topic) {
        return Map.of();
    }
}
