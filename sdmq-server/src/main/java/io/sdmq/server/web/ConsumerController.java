package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.SdmqException;
import io.sdmq.core.Consumer;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** What consumers do: wait for due messages, acknowledge, give back, extend (DESIGN §6). */
@RestController
class ConsumerController {
    private static final long EXTRA_WAIT_MS = 5_000;
    private static final int MAX_FINISH_IDS = 1_000;

    private final Consumer queue;
    private final ApiExceptionHandler errors;

    ConsumerController(Consumer queue, ApiExceptionHandler errors) {
        this.queue = queue;
        this.errors = errors;
    }

    /**
     * Answers at once when the messages were popped in this call (a backlog), else parks the request, holding no
     * thread, until they come or the timeout ends.
     */
    @GetMapping("/get/{topic}")
    Object get(@PathVariable String topic,
               @RequestParam(defaultValue = "30000") long timeout,
               @RequestParam(defaultValue = "1") int count) {
        CompletableFuture<List<Message>> popped = queue.pop(topic, count, Duration.ofMillis(timeout));
        if (popped.isDone() && !popped.isCompletedExceptionally()) {
            return delivered(popped.join());
        }
        DeferredResult<ResponseEntity<ApiResponse<List<DeliveredMessage>>>> reply =
                new DeferredResult<>(Math.max(timeout, 0) + EXTRA_WAIT_MS);
        popped.whenComplete((messages, failure) -> {
            if (failure != null) {
                reply.setErrorResult(failure);
            } else {
                reply.setResult(delivered(messages));
            }
        });
        return reply;
    }

    private static ResponseEntity<ApiResponse<List<DeliveredMessage>>> delivered(List<Message> messages) {
        return ApiResponse.ok(messages.stream().map(DeliveredMessage::of).toList());
    }

    /** One id as a parameter, or a JSON array of ids as the body (answered per id). */
    @PostMapping("/finish")
    ResponseEntity<?> finish(@RequestParam(required = false) String jobId, @RequestParam(required = false) String id,
                             @RequestBody(required = false) List<String> ids) {
        if (jobId != null || id != null || ids == null) {
            queue.finish(MessageIds.parse(jobId, id));
            return ApiResponse.ok(true);
        }
        if (ids.isEmpty() || ids.size() > MAX_FINISH_IDS) {
            throw new InvalidRequestException("ids", "must hold 1.." + MAX_FINISH_IDS + " message ids");
        }
        FinishResult[] results = new FinishResult[ids.size()];
        List<Long> parsed = new ArrayList<>(ids.size());
        List<Integer> at = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            try {
                parsed.add(MessageIds.parse(ids.get(i), null));
                at.add(i);
            } catch (SdmqException e) {
                results[i] = failed(ids.get(i), e);
            }
        }
        List<Optional<SdmqException>> outcomes = queue.finishAll(parsed);
        for (int k = 0; k < parsed.size(); k++) {
            String given = ids.get(at.get(k));
            results[at.get(k)] = outcomes.get(k).map(e -> failed(given, e)).orElse(new FinishResult(given, 200, null));
        }
        return ApiResponse.ok(List.of(results));
    }

    private FinishResult failed(String id, SdmqException e) {
        return new FinishResult(id, errors.statusOf(e).value(), e.getMessage());
    }

    @PostMapping("/nack")
    ResponseEntity<ApiResponse<Boolean>> nack(@RequestParam(required = false) String jobId,
                                              @RequestParam(required = false) String id,
                                              @RequestParam(required = false) Long delay) {
        queue.nack(MessageIds.parse(jobId, id), delay);
        return ApiResponse.ok(true);
    }

    @PostMapping("/touch")
    ResponseEntity<ApiResponse<Long>> touch(@RequestParam(required = false) String jobId,
                                            @RequestParam(required = false) String id) {
        return ApiResponse.ok(queue.touch(MessageIds.parse(jobId, id)));
    }

    /** The answer for one id of a batch finish: its HTTP-like code and, on failure, why. */
    record FinishResult(String id, int code, String message) {
    }
}
