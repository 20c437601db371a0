package io.sdmq.server.config;

import io.sdmq.core.engine.Engine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** {@code scheduler} in {@code /actuator/health}: up while the scheduler, reaper, warmer and status log writers run. */
@Component("scheduler")
class SchedulerHealthIndicator implements HealthIndicator {
    private final Engine engine;

    SchedulerHealthIndicator(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        return engine.healthy() ? Health.up().build() : Health.down().withDetail("loops", "not running").build();
    }
}
