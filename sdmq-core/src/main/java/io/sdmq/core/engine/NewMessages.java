package io.sdmq.core.engine;

import io.sdmq.common.IdGenerator;
import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** The push rules applied at the clock's time: requests checked and made into messages with fresh ids. */
final class NewMessages {
    static final int MAX_BATCH = 1_000;

    private final PushRules rules;
    private final TopicRules topics;
    private final IdGenerator ids;
    private final Clock clock;

    NewMessages(PushRules rules, TopicRules topics, IdGenerator ids, Clock clock) {
        this.rules = rules;
        this.topics = topics;
        this.ids = ids;
        this.clock = clock;
    }

    Message of(PushRequest request) {
        return toMessage(request, ids.nextId(), clock.millis());
    }

    /** The push rules of the request's topic: the server's, or with the topic's defaults and maxDelay. */
    private Message toMessage(PushRequest request, long id, long now) {
        TopicRules.Rules topic = topics.of(request.topic());
        return topic == null ? rules.toMessage(request, id, now)
                : topic.pushRules().toMessage(topic.settings().fill(request), id, now);
    }

    /** One message per request, all created at the same instant; every bad request is named, by index. */
    List<Message> ofAll(List<PushRequest> requests) {
        if (requests == null || requests.isEmpty() || requests.size() > MAX_BATCH) {
            throw new InvalidRequestException("messages", "must hold 1.." + MAX_BATCH + " messages");
        }
        List<Message> messages = new ArrayList<>(requests.size());
        List<String> errors = new ArrayList<>();
        long now = clock.millis();
        for (int i = 0; i < requests.size(); i++) {
            try {
                messages.add(toMessage(requests.get(i), ids.nextId(), now));
            } catch (InvalidRequestException e) {
                errors.add("[" + i + "]." + e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("messages", String.join("; ", errors));
        }
        return messages;
    }

    /** The due time a delay (ms) or an absolute deliverAt (epoch ms) names now; exactly one of the two. */
    long dueTime(Long delay, Long deliverAt) {
        return rules.dueTime(delay, deliverAt, clock.millis());
    }
}
