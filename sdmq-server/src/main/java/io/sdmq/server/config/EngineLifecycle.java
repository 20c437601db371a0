package io.sdmq.server.config;

import io.sdmq.common.IdGenerator;
import io.sdmq.core.engine.Engine;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the engine after Redis and MySQL clients are up and stops it before they go down (and after the web
 * server has stopped taking requests); then gives back the leased worker id.
 */
class EngineLifecycle implements SmartLifecycle {
    private final Engine engine;
    private final IdGenerator ids;
    private volatile boolean running;

    EngineLifecycle(Engine engine, IdGenerator ids) {
        this.engine = engine;
        this.ids = ids;
    }

    @Override
    public void start() {
        engine.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        engine.close();
        if (ids instanceof LeasedWorkerId leased) {
            leased.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 4096;
    }
}
