package io.sdmq.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one way sdmq makes threads: daemons named after what they do, so a thread dump and the status log say who did
 * what.
 */
public final class Daemons {
    private Daemons() {
    }

    /** Threads named {@code name-1}, {@code name-2}, … */
    public static ThreadFactory factory(String name) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> thread(name + "-" + n.incrementAndGet(), runnable);
    }

    /** A daemon thread, not started. */
    public static Thread thread(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
