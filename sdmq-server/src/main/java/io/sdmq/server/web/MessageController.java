package io.sdmq.server.web;

import io.sdmq.common.PushRequest;
import io.sdmq.core.DelayQueue;
import io.sdmq.core.DelayQueue.PushResult;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

import java.time.Duration;
import java.util.List;

/** The producer and consumer API of DESIGN §6. */
@RestController
class MessageController {
    private static final long EXTRA_WAIT_MS = 5_000;

    private final DelayQueue queue;

    MessageController(DelayQueue queue) {
        this.queue = queue;
    }

    @PostMapping(path = "/push", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ApiResponse<String>> push(@RequestBody PushRequest request) {
        PushResult result = queue.push(request);
        return ApiResponse.ok(Long.toString(result.id()), result.duplicate() ? "duplicate" : null);
    }

    @RequestMapping(path = "/delete", method = {RequestMethod.POST, RequestMethod.GET})
    ResponseEntity<ApiResponse<Boolean>> delete(@RequestParam(required = false) String jobId,
                                                @RequestParam(required = false) String id) {
        queue.delete(MessageIds.parse(jobId, id));
        return ApiResponse.ok(true);
    }

    @GetMapping("/get/{topic}")
    DeferredResult<ResponseEntity<ApiResponse<List<DeliveredMessage>>>> get(
            @PathVariable String topic,
            @RequestParam(defaultValue = "30000") long timeout,
            @RequestParam(defaultValue = "1") int count) {
        DeferredResult<ResponseEntity<ApiResponse<List<DeliveredMessage>>>> reply =
                new DeferredResult<>(Math.max(timeout, 0) + EXTRA_WAIT_MS);
        queue.pop(topic, count, Duration.ofMillis(timeout)).whenComplete((messages, failure) -> {
            if (failure != null) {
                reply.setErrorResult(failure);
            } else {
                reply.setResult(ApiResponse.ok(messages.stream().map(DeliveredMessage::of).toList()));
            }
        });
        return reply;
    }

    @PostMapping("/finish")
    ResponseEntity<ApiResponse<Boolean>> finish(@RequestParam(required = false) String jobId,
                                                @RequestParam(required = false) String id) {
        queue.finish(MessageIds.parse(jobId, id));
        return ApiResponse.ok(true);
    }
}
