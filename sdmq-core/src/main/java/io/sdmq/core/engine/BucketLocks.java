package io.sdmq.core.engine;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Keeps a message's transitions in the status log queue in the order they happened in Redis. A push or a pop holds
 * its bucket's shared lock from its script until its transition is queued; a move holds the exclusive lock, so no
 * message can be moved before its DELAY is queued, nor popped before its READY is.
 */
final class BucketLocks {
    private final ReadWriteLock[] locks;

    BucketLocks(int buckets) {
        locks = new ReadWriteLock[buckets];
        for (int b = 0; b < buckets; b++) {
            locks[b] = new ReentrantReadWriteLock();
        }
    }

    <T> T shared(int bucket, Supplier<T> step) {
        return run(locks[bucket].readLock(), step);
    }

    <T> T exclusive(int bucket, Supplier<T> step) {
        return run(locks[bucket].writeLock(), step);
    }

    private static <T> T run(Lock lock, Supplier<T> step) {
        lock.lock();
        try {
            return step.get();
        } finally {
            lock.unlock();
        }
    }
}
