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
    private final IdGenerator ids;
    private final Clock clock;

    NewMessages(PushRules rules, IdGenerator ids, Clock clock) {
        this.rules = rules;
        this.ids = ids;
        this.clock = clock;
    }

    Message of(PushRequest request) {
        return rules.toMessage(request, ids.nextId(), clock.millis());
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
                messages.add(rules.toMessage(requests.get(i), ids.nextId(), now));
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
