package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.core.Producer;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.Producer.PushOutcome;
import io.sdmq.core.Producer.PushResult;
import io.sdmq.server.security.TopicGuard;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Objects;

/** What producers do: push, cancel, move (DESIGN §6); each within the topics of the caller's token. */
@RestController
class ProducerController {
    private final Producer queue;
    private final TopicGuard guard;

    ProducerController(Producer queue, TopicGuard guard) {
        this.queue = queue;
        this.guard = guard;
    }

    @PostMapping(path = "/push", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<String>> push(@RequestBody PushBody body) {
        if (body == null) {
            throw new InvalidRequestException("body", "must be a JSON object");
        }
        guard.checkTopic(body.topic());
        PushResult result = queue.push(body.request(), body.duplicates());
        return ApiResponse.ok(Long.toString(result.id()), describe(result.outcome()));
    }

    @PostMapping(path = "/push/batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<List<String>>> pushBatch(@RequestBody List<PushBody> bodies) {
        if (bodies == null || bodies.stream().anyMatch(Objects::isNull)) {
            throw new InvalidRequestException("messages", "must be a JSON array of message objects");
        }
        guard.checkTopics(bodies.stream().map(PushBody::topic).toList());
        List<OnDuplicate> policies = bodies.stream().map(PushBody::duplicates).distinct().toList();
        if (policies.size() > 1) {
            throw new InvalidRequestException("onDuplicate", "must be the same for every message of a batch");
        }
        List<PushResult> results = queue.pushBatch(bodies.stream().map(PushBody::request).toList(),
                policies.isEmpty() ? OnDuplicate.IGNORE : policies.get(0));
        long duplicates = results.stream().filter(PushResult::duplicate).count();
        return ApiResponse.ok(results.stream().map(r -> Long.toString(r.id())).toList(),
                duplicates == 0 ? null : duplicates + " duplicate");
    }

    @RequestMapping(path = "/delete", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<Boolean>> delete(@RequestParam(required = false) String jobId,
                                                @RequestParam(required = false) String id,
                                                @RequestParam(required = false) String topic,
                                                @RequestParam(required = false) String bizKey) {
        if (jobId == null && id == null && (topic != null || bizKey != null)) {
            guard.checkTopic(topic);
            queue.deleteByKey(topic, bizKey);
        } else {
            long parsed = MessageIds.parse(jobId, id);
            guard.checkId(parsed);
            queue.delete(parsed);
        }
        return ApiResponse.ok(true);
    }

    @PostMapping("/reschedule")
    ResponseEntity<ApiResponse<Long>> reschedule(@RequestParam(required = false) String jobId,
                                                 @RequestParam(required = false) String id,
                                                 @RequestParam(required = false) Long delay,
                                                 @RequestParam(required = false) Long deliverAt) {
        long parsed = MessageIds.parse(jobId, id);
        guard.checkId(parsed);
        return ApiResponse.ok(queue.reschedule(parsed, delay, deliverAt));
    }

    private static String describe(PushOutcome outcome) {
        return switch (outcome) {
            case CREATED -> null;
            case DUPLICATE -> "duplicate";
            case REPLACED -> "replaced";
        };
    }
}
