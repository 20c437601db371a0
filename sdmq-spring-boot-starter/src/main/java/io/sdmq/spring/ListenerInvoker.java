package io.sdmq.spring;

import io.sdmq.client.Delivered;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.time.Duration;

/**
 * Calls an endpoint's method for one message, touching the message while it runs, reporting to the observer, and
 * answers what becomes of the message. A failure is logged here, once.
 */
final class ListenerInvoker {
    private static final Logger log = LoggerFactory.getLogger(ListenerInvoker.class);

    /** What becomes of a handled message. */
    enum Outcome { FINISH, RETRY, DEAD }

    private final ListenerEndpoint endpoint;
    private final Toucher toucher;
    private final ListenerObserver observer;

    ListenerInvoker(ListenerEndpoint endpoint, Toucher toucher, ListenerObserver observer) {
        this.endpoint = endpoint;
        this.toucher = toucher;
        this.observer = observer;
    }

    Outcome handle(Delivered message) {
        observer.received(endpoint.topic(),
                Duration.ofMillis(Math.max(0, System.currentTimeMillis() - message.dueTime())));
        long start = System.nanoTime();
        try (Toucher.Touching touching = toucher.start(message.id())) {
            endpoint.method().invoke(endpoint.bean(), endpoint.argument(message));
            observer.handled(endpoint.topic(), Duration.ofNanos(System.nanoTime() - start));
            return Outcome.FINISH;
        } catch (InvocationTargetException e) {
            return failed(message, e.getCause(), start);
        } catch (IllegalAccessException | RuntimeException e) {
            return failed(message, e, start);
        }
    }

    private Outcome failed(Delivered message, Throwable failure, long start) {
        observer.failed(endpoint.topic(), Duration.ofNanos(System.nanoTime() - start));
        if (endpoint.isNonRetryable(failure)) {
            log.warn("listener {} gave up on message {} (attempt {}): {}; it is made DEAD", endpoint.name(),
                    message.id(), message.attempts(), failure.toString());
            return Outcome.DEAD;
        }
        log.warn("listener {} failed on message {} (attempt {}); nacked, the server redelivers it after its backoff",
                endpoint.name(), message.id(), message.attempts(), failure);
        return Outcome.RETRY;
    }
}
