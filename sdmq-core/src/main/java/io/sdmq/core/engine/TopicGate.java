package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.spi.TopicLimits;
import io.sdmq.core.spi.TopicLimits.Grant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What a topic's settings allow a pop to take: nothing while it is paused, what its rate and in-flight limits grant
 * (asked of Redis, shared by every instance) when it has any, else all it wants with no Redis call. Finishes, nacks
 * and touches tell the in-flight limits what they did.
 */
final class TopicGate {
    private static final Logger log = LoggerFactory.getLogger(TopicGate.class);

    private final TopicRules rules;
    private final TopicLimits limits;

    TopicGate(TopicRules rules, TopicLimits limits) {
        this.rules = rules;
        this.limits = limits;
    }

    /** A pop of up to {@code count} messages, each reserved at the time {@code clock} tells. */
    interface Pop {
        List<Message> pop(int count, LongSupplier clock);
    }

    /**
     * Up to {@code count} messages of a topic taken by {@code pop}, as the topic's settings allow. A limited topic's
     * messages are reserved at times within the second their grant counted them in, and no earlier than the grant;
     * {@code reservedUntil} is when {@code pop} reserves them until, when that ends later than their time-to-run.
     */
    List<Message> take(String topic, int count, Clock clock, long reservedUntil, Pop pop) {
        TopicRules.Rules topicRules = rules.of(topic);
        if (topicRules == null) {
            return pop.pop(count, clock::millis);
        }
        TopicSettings s = topicRules.settings();
        if (s.paused()) {
            return List.of();
        }
        if (!s.limited()) {
            return pop.pop(count, clock::millis);
        }
        long now = clock.millis();
        long windowEnd = (now / 1_000 + 1) * 1_000 - 1;
        Grant grant;
        try {
            grant = limits.grant(topic, count, now, s.rateLimit(), s.maxInFlight());
        } catch (RuntimeException e) {
            log.warn("could not ask the limits of topic {} ({}); its consumers wait for the next look", topic,
                    e.toString());
            return List.of();
        }
        if (grant.count() == 0) {
            return List.of();
        }
        List<Message> got = List.of();
        try {
            got = pop.pop(grant.count(), () -> Math.max(now, Math.min(clock.millis(), windowEnd)));
        } finally {
            taken(topic, grant, got, windowEnd, reservedUntil);
        }
        return got;
    }

    /**
     * Each message counts until its TTR after the end of the grant's second, or until it is reserved when that is
     * later: never before its reservation ends.
     */
    private void taken(String topic, Grant grant, List<Message> got, long windowEnd, long reservedUntil) {
        try {
            limits.taken(topic, grant, got.stream()
                    .map(m -> new long[]{m.id(), Math.max(windowEnd + m.ttrMs(), reservedUntil)}).toList());
        } catch (RuntimeException e) {
            log.warn("could not record {} reservations of topic {} in its limits ({}); the slots held for them free up "
                    + "by themselves", got.size(), topic, e.toString());
        }
    }

    /**
     * Reservations ended by finishes, by topic (finish.lua answers each one's topic): the topics with an in-flight
     * limit among them are told. Answers those topics.
     */
    List<String> finished(Map<String, List<Long>> idsByTopic) {
        List<String> told = new ArrayList<>();
        idsByTopic.forEach((topic, ids) -> {
            if (inFlightLimited(topic)) {
                limits.released(topic, ids);
                told.add(topic);
            }
        });
        return told;
    }

    /** A reservation of a known topic ended by a nack. */
    void nacked(Message m) {
        if (inFlightLimited(m.topic())) {
            limits.released(m.topic(), List.of(m.id()));
        }
    }

    /** A reservation now ends at {@code deadline}. */
    void touched(long id, long deadline) {
        for (String topic : rules.inFlightLimited()) {
            limits.extended(topic, id, deadline);
        }
    }

    private boolean inFlightLimited(String topic) {
        TopicRules.Rules topicRules = rules.of(topic);
        return topicRules != null && topicRules.settings().maxInFlight() != null;
    }
}
