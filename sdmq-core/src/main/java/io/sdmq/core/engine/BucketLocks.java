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

    /** Holds the shared locks of several buckets, given in ascending order, the only order two are ever taken. */
    void sharedAll(int[] buckets, Runnable step) {
        holdAll(buckets, false, step);
    }

    /** Holds the exclusive locks of several buckets, given in ascending order. */
    void exclusiveAll(int[] buckets, Runnable step) {
        holdAll(buckets, true, step);
    }

    private void holdAll(int[] buckets, boolean exclusive, Runnable step) {
        int held = 0;
        try {
            for (; held < buckets.length; held++) {
                lock(buckets[held], exclusive).lock();
            }
            step.run();
        } finally {
            while (held > 0) {
                lock(buckets[--held], exclusive).unlock();
            }
        }
    }

    private Lock lock(int bucket, boolean exclusive) {
        return exclusive ? locks[bucket].writeLock() : locks[bucket].readLock();
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
