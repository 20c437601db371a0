package io.sdmq.server.web;

import io.sdmq.common.Message;
import org.springframework.web.context.request.async.DeferredResult;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The reply of a route that pops: at once when the pop was answered in the call, else a parked request, holding no
 * thread, answered when the pop completes. A failure goes to the route's exception handlers, as a thrown one does.
 */
public final class ParkedReply {
    /** Beyond the pop's own timeout, before the servlet container gives up on a parked request. */
    private static final long EXTRA_WAIT_MS = 5_000;

    private ParkedReply() {
    }

    /** {@code answer} of the popped messages, now or when they come; the pop times out after {@code timeoutMs}. */
    public static Object of(CompletableFuture<List<Message>> popped, long timeoutMs,
                            Function<List<Message>, ?> answer) {
        if (popped.isDone() && !popped.isCompletedExceptionally()) {
            return answer.apply(popped.join());
        }
        DeferredResult<Object> reply = new DeferredResult<>(Math.max(timeoutMs, 0) + EXTRA_WAIT_MS);
        popped.whenComplete((messages, failure) -> {
            if (failure != null) {
                reply.setErrorResult(failure);
            } else {
                reply.setResult(answer.apply(messages));
            }
        });
        return reply;
    }
}
