package io.sdmq.core.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named after what they do, so a thread dump and the transition log say who did what. */
final class Daemons {
    private Daemons() {
    }

    static ThreadFactory factory(String name) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> thread(name + "-" + n.incrementAndGet(), runnable);
    }

    static Thread thread(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
