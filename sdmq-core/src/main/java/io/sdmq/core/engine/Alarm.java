package io.sdmq.core.engine;

import java.util.concurrent.locks.LockSupport;

/** Cuts the sleep of one loop thread short: made before the loop, so that what wakes it can be made first too. */
final class Alarm {
    private volatile Thread sleeper;

    /** From now on {@link #ring()} wakes the calling thread. */
    void wakes() {
        sleeper = Thread.currentThread();
    }

    /** Sleeps the calling thread for up to {@code nanos}, or until {@link #ring()}. */
    void sleep(long nanos) {
        LockSupport.parkNanos(this, nanos);
    }

    void ring() {
        Thread t = sleeper;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
