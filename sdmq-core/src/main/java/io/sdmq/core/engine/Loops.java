package io.sdmq.core.engine;

import java.util.List;

/**
 * Starts and stops the engine's timed loops. The first ones named are watched for health; the others (reconciler,
 * retention) may pause while MySQL is away without the instance counting as unhealthy.
 */
final class Loops {
    private final List<TimedLoop> watched;
    private final List<TimedLoop> others;

    Loops(List<TimedLoop> watched, List<TimedLoop> others) {
        this.watched = List.copyOf(watched);
        this.others = List.copyOf(others);
    }

    void start() {
        watched.forEach(TimedLoop::start);
        others.forEach(TimedLoop::start);
    }

    void stop() {
        watched.forEach(TimedLoop::stop);
        others.forEach(TimedLoop::stop);
    }

    boolean healthy() {
        return watched.stream().allMatch(TimedLoop::healthy);
    }
}
