package io.sdmq.server.security;

import io.sdmq.common.ForbiddenTopicException;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.PushRules;
import io.sdmq.server.config.SdmqProperties;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The topics a caller's token may act on: every topic, or those matching one of its patterns, where {@code *} stands
 * for any run of topic characters ({@code orders.*} takes {@code orders.eu} and {@code orders.}, not {@code orders}).
 * {@link AccessFilter} leaves the caller's scope on the request; the routes check the topics they act on with
 * {@link TopicGuard}.
 */
public final class TopicScope {
    /** The scope of an unscoped token, and of every caller of an open server. */
    public static final TopicScope EVERY_TOPIC = new TopicScope(List.of());

    private final List<String> patterns;
    private final List<Pattern> compiled;

    private TopicScope(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
        this.compiled = patterns.stream().map(TopicScope::compile).toList();
    }

    /** The scope of a token with these patterns (checked at start-up, see {@link SdmqProperties.NamedToken}). */
    static TopicScope of(List<String> patterns) {
        return patterns == null || patterns.isEmpty() ? EVERY_TOPIC : new TopicScope(patterns);
    }

    /** The scope of the caller of the request this thread serves; every topic outside a request. */
    public static TopicScope current() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        Object scope = request == null ? null
                : request.getAttribute(AccessFilter.CALLER_SCOPE, RequestAttributes.SCOPE_REQUEST);
        return scope instanceof TopicScope s ? s : EVERY_TOPIC;
    }

    /** True for a token without topic patterns: nothing needs checking. */
    public boolean everyTopic() {
        return patterns.isEmpty();
    }

    /** The token's patterns, as configured; empty for every topic. */
    public List<String> patterns() {
        return patterns;
    }

    public boolean allows(String topic) {
        return everyTopic() || compiled.stream().anyMatch(p -> p.matcher(topic).matches());
    }

    /**
     * Refuses (403, naming the topic) a well-formed topic beyond this scope. A malformed one is left to the route's
     * own check, which answers 400 naming the field.
     */
    public void check(String topic) {
        if (!everyTopic() && wellFormed(topic) && !allows(topic)) {
            throw new ForbiddenTopicException("topic " + topic + ": this token may act only on topics matching "
                    + String.join(", ", patterns));
        }
    }

    /** {@link #check} for each topic, in order: the first one beyond this scope refuses them all. */
    public void checkAll(Collection<String> topics) {
        if (!everyTopic()) {
            topics.forEach(this::check);
        }
    }

    /** Refuses (403) an action over every topic, such as a whole restore, to a token scoped to some. */
    public void requireEveryTopic(String action) {
        if (!everyTopic()) {
            throw new ForbiddenTopicException(action + " acts on every topic; this token may act only on topics "
                    + "matching " + String.join(", ", patterns));
        }
    }

    private static boolean wellFormed(String topic) {
        try {
            PushRules.checkTopic("topic", topic);
            return true;
        } catch (InvalidRequestException e) {
            return false;
        }
    }

    private static Pattern compile(String pattern) {
        return Pattern.compile(Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote)
                .collect(Collectors.joining(".*")));
    }

    @Override
    public String toString() {
        return everyTopic() ? "every topic" : String.join(", ", patterns);
    }
}
