package io.sdmq.spring;

import io.sdmq.client.SdmqClient;
import io.sdmq.client.SdmqClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Touches the messages whose handler runs long, so that their reservation does not pass and they are not handed
 * out again. The server does not send a message's TTR with it, so the first touch comes at half of the assumed
 * {@code ttr} ({@code sdmq.client.listener.ttr}); each touch answers the new deadline, which tells the real TTR, and
 * the next touch comes at half of it. One scheduler thread serves a container's threads.
 */
final class Toucher {
    private static final Logger log = LoggerFactory.getLogger(Toucher.class);

    private final SdmqClient client;
    private final ScheduledExecutorService scheduler;
    private final Duration assumedTtr;

    Toucher(SdmqClient client, ScheduledExecutorService scheduler, Duration assumedTtr) {
        this.client = client;
        this.scheduler = scheduler;
        this.assumedTtr = assumedTtr;
    }

    /** Starts touching the message {@code id} until the returned handle is closed. */
    Touching start(String id) {
        Touching touching = new Touching(id);
        touching.schedule(assumedTtr.toMillis() / 2);
        return touching;
    }

    /** The touches of one message being handled; {@link #close} stops them. */
    final class Touching implements AutoCloseable {
        private final String id;
        private ScheduledFuture<?> next;
        private boolean closed;

        private Touching(String id) {
            this.id = id;
        }

        private synchronized void schedule(long delayMs) {
            if (!closed) {
                next = scheduler.schedule(this::touch, Math.max(1, delayMs), TimeUnit.MILLISECONDS);
            }
        }

        private void touch() {
            synchronized (this) {
                if (closed) {
                    return;
                }
            }
            try {
                long deadline = client.touch(id);
                schedule((deadline - System.currentTimeMillis()) / 2);
            } catch (SdmqClientException e) {
                boolean worthAnother = e.status() == 0 || e.status() >= 500;
                log.warn("could not touch message {} (its handler still runs): {}; {}", id, e.getMessage(),
                        worthAnother ? "will try again in " + assumedTtr.dividedBy(4)
                                : "it may be handed out again once its TTR passes");
                if (worthAnother) {
                    schedule(assumedTtr.toMillis() / 4);
                }
            }
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (next != null) {
                next.cancel(false);
            }
        }
    }
}
