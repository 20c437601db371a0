package io.sdmq.core.engine;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One topic's parked consumers, in arrival order, and the buckets that may hold ready ids of it (the candidates);
 * one drain at a time pops for the waiters, starting at the cursor's bucket.
 */
final class WaitingTopic {
    final String name;
    final Queue<WaitingConsumers.Waiter> waiters = new ConcurrentLinkedQueue<>();
    final Set<Integer> candidates = ConcurrentHashMap.newKeySet();
    final AtomicBoolean draining = new AtomicBoolean();
    /** Messages moved to ready here since the last pop for the first waiter (see {@link WaitingConsumers#ready}). */
    final AtomicInteger readySincePop = new AtomicInteger();
    volatile int cursor;

    WaitingTopic(String name) {
        this.name = name;
    }
}
