package io.sdmq.server.web;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.core.Consumer;
import io.sdmq.core.Consumer.FinishedAndPopped;
import io.sdmq.server.delivery.Dispatchers;
import io.sdmq.server.security.TopicGuard;
import io.sdmq.server.web.FinishIds.FinishResult;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.List;

/**
 * What consumers do: wait for due messages, acknowledge, give back, extend (DESIGN §6); each within the topics of the
 * caller's token.
 */
@RestController
class ConsumerController {
    private final Consumer queue;
    private final ApiExceptionHandler errors;
    private final TopicGuard guard;
    private final Dispatchers dispatchers;

    ConsumerController(Consumer queue, ApiExceptionHandler errors, TopicGuard guard, Dispatchers dispatchers) {
        this.dispatchers = dispatchers;
        this.queue = queue;
        this.errors = errors;
        this.guard = guard;
    }

    /**
     * Answers at once when the messages were popped in this call (a backlog), else parks the request, holding no
     * thread, until they come (and, with a {@code linger}, the batch fills or the linger ends) or the timeout ends.
     */
    @GetMapping("/get/{topic}")
    Object get(@PathVariable String topic,
               @RequestParam(defaultValue = "30000") long timeout,
               @RequestParam(defaultValue = "1") int count,
               @RequestParam(defaultValue = "0") long linger) {
        guard.checkTopic(topic);
        dispatchers.checkPolled(topic);
        return ParkedReply.of(queue.pop(topic, count, Duration.ofMillis(timeout), Duration.ofMillis(linger)), timeout,
                ConsumerController::delivered);
    }

    /**
     * A consumer's loop in one call per batch: finishes the previous batch's ids (a JSON array, may be empty or
     * absent) with one group commit, then waits as {@code GET /get/{topic}} does; answers each id's outcome and the
     * new batch. A bad parameter answers 400 before anything is finished.
     */
    @PostMapping("/get/{topic}")
    Object finishAndGet(@PathVariable String topic,
                        @RequestParam(defaultValue = "30000") long timeout,
                        @RequestParam(defaultValue = "1") int count,
                        @RequestParam(defaultValue = "0") long linger,
                        @RequestBody(required = false) List<String> finish) {
        guard.checkTopic(topic);
        dispatchers.checkPolled(topic);
        FinishIds ids = FinishIds.of(finish == null ? List.of() : finish, 0, errors);
        guard.checkIds(ids.valid());
        FinishedAndPopped done = queue.finishAndPop(ids.valid(), topic, count, Duration.ofMillis(timeout),
                Duration.ofMillis(linger));
        List<FinishResult> finished = ids.results(done.finished(), errors);
        return ParkedReply.of(done.popped(), timeout, messages -> ApiResponse.ok(
                new FinishedAndDelivered(finished, messages.stream().map(DeliveredMessage::of).toList())));
    }

    private static ResponseEntity<ApiResponse<List<DeliveredMessage>>> delivered(List<Message> messages) {
        return ApiResponse.ok(messages.stream().map(DeliveredMessage::of).toList());
    }

    /** One id as a parameter, or a JSON array of ids as the body (answered per id). */
    @PostMapping("/finish")
    ResponseEntity<?> finish(@RequestParam(required = false) String jobId, @RequestParam(required = false) String id,
                             @RequestBody(required = false) List<String> ids) {
        if (jobId != null || id != null || ids == null) {
            long parsed = MessageIds.parse(jobId, id);
            guard.checkId(parsed);
            queue.finish(parsed);
            return ApiResponse.ok(true);
        }
        FinishIds parsed = FinishIds.of(ids, 1, errors);
        guard.checkIds(parsed.valid());
        return ApiResponse.ok(parsed.results(queue.finishAll(parsed.valid()), errors));
    }

    /**
     * Gives a reserved message back, due after {@code delay} or its retry policy's backoff; with {@code dead=true}
     * (and no delay) it is {@code DEAD} at once, for a consumer that knows a retry cannot help.
     */
    @PostMapping("/nack")
    ResponseEntity<ApiResponse<Boolean>> nack(@RequestParam(required = false) String jobId,
                                              @RequestParam(required = false) String id,
                                              @RequestParam(required = false) Long delay,
                                              @RequestParam(defaultValue = "false") boolean dead) {
        long parsed = MessageIds.parse(jobId, id);
        guard.checkId(parsed);
        if (!dead) {
            queue.nack(parsed, delay);
        } else if (delay != null) {
            throw new InvalidRequestException("delay", "must not be given with dead=true");
        } else {
            queue.nackAsDead(parsed);
        }
        return ApiResponse.ok(true);
    }

    @PostMapping("/touch")
    ResponseEntity<ApiResponse<Long>> touch(@RequestParam(required = false) String jobId,
                                            @RequestParam(required = false) String id) {
        long parsed = MessageIds.parse(jobId, id);
        guard.checkId(parsed);
        return ApiResponse.ok(queue.touch(parsed));
    }

    /** The answer of a {@code POST /get}: the outcome of each id it finished, and the messages it delivered. */
    record FinishedAndDelivered(List<FinishResult> finished, List<DeliveredMessage> messages) {
    }
}
