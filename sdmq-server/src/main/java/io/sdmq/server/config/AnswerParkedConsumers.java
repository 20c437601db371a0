package io.sdmq.server.config;

import io.sdmq.core.engine.Engine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The first lifecycle to stop in a shutdown, before the web server waits for the requests inside to end: answers the
 * consumers parked in long polls (they would hold that wait up to their timeout, beyond the grace period) with what
 * they have, an empty list unless a lingering one got messages, and makes every later pop answer at once.
 */
class AnswerParkedConsumers implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(AnswerParkedConsumers.class);

    private final Engine engine;
    private volatile boolean running;

    AnswerParkedConsumers(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        int answered = engine.answerWaitingConsumers();
        log.info("shutting down: answered {} parked consumers; pops now answer at once, empty", answered);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Above the web server's graceful shutdown ({@code Integer.MAX_VALUE - 1024}), so it stops first. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
