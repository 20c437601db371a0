package io.sdmq.core.engine;

import java.util.List;

/**
 * Starts and stops the engine's timed loops. The scheduler, the reaper and the warmer are watched for health; the
 * reconciler and retention may pause while MySQL is away without the instance counting as unhealthy.
 */
final class Loops {
    /** The loops {@link #runOnce()} runs, in its order. */
    private final List<TimedLoop> steps;
    private final List<TimedLoop> watched;
    private final List<TimedLoop> all;

    Loops(TimedLoop reconciler, TimedLoop warmer, TimedLoop scheduler, TimedLoop reaper, TimedLoop retention) {
        this.steps = List.of(reconciler, warmer, scheduler, reaper);
        this.watched = List.of(scheduler, reaper, warmer);
        this.all = List.of(reconciler, warmer, scheduler, reaper, retention);
    }

    void start() {
        all.forEach(TimedLoop::start);
    }

    void stop() {
        all.forEach(TimedLoop::stop);
    }

    boolean healthy() {
        return watched.stream().allMatch(TimedLoop::healthy);
    }

    /** The reconciler, the warmer, the scheduler and the reaper once at the clock's time: for step-wise tests. */
    void runOnce() {
        steps.forEach(TimedLoop::runOnce);
    }
}
