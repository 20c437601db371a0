package io.sdmq.server.security;

import io.sdmq.core.Admin;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Checks the topics a route acts on against its caller's {@link TopicScope}: topics the request names (path or body)
 * as they are, and topics of messages it names by id through one MySQL query by primary key. A caller whose token has
 * no topic patterns, every caller of the legacy properties included, costs nothing: no lookup is made
 * ({@code docs/decisions/0029-topic-scoped-tokens.md}).
 */
@Component
public class TopicGuard {
    private final Admin admin;

    TopicGuard(Admin admin) {
        this.admin = admin;
    }

    /** Refuses (403) a topic beyond the caller's scope. */
    public void checkTopic(String topic) {
        TopicScope.current().check(topic);
    }

    /** Refuses (403) the whole request when one of the topics is beyond the caller's scope. */
    public void checkTopics(Collection<String> topics) {
        TopicScope.current().checkAll(topics);
    }

    /** Refuses (403) an action over every topic to a scoped caller. */
    public void requireEveryTopic(String action) {
        TopicScope.current().requireEveryTopic(action);
    }

    /** Refuses (403) when the message of {@code id} belongs to a topic beyond the caller's scope. */
    public void checkId(long id) {
        checkIds(List.of(id));
    }

    /**
     * Refuses (403) the whole request when the message of one of the ids belongs to a topic beyond the caller's scope.
     * An id MySQL does not know passes: the route answers that it is not found, as it would to anyone.
     */
    public void checkIds(List<Long> ids) {
        TopicScope scope = TopicScope.current();
        if (scope.everyTopic() || ids.isEmpty()) {
            return;
        }
        Map<Long, String> topics = admin.topicsOf(ids);
        for (Long id : ids) {
            String topic = topics.get(id);
            if (topic != null) {
                scope.check(topic);
            }
        }
    }
}
