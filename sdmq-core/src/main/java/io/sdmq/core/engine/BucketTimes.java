package io.sdmq.core.engine;

import io.sdmq.core.spi.BucketSet;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The earliest time each bucket needs attention (a due score, a reservation deadline), as this instance knows
 * it. Every {@code refreshMs} all buckets count as due, which covers work scheduled by other instances.
 */
final class BucketTimes {
    private final AtomicLongArray times;
    private final long refreshMs;
    private long lastRefresh = Long.MIN_VALUE / 2;

    BucketTimes(int buckets, long refreshMs) {
        this.times = new AtomicLongArray(buckets);
        this.refreshMs = refreshMs;
    }

    /** Something in {@code bucket} needs attention at {@code time}; answers whether that is earlier than known. */
    boolean lower(int bucket, long time) {
        return times.getAndAccumulate(bucket, time, Math::min) > time;
    }

    /** How long ago the earliest time known here passed at {@code now}; 0 when none has passed. */
    long overdue(long now) {
        return Math.max(0, now - earliest());
    }

    /**
     * Looks at a bucket page by page until a page comes back short of {@code pageSize}. The bucket's time is forgotten
     * before each look and lowered after it to the time the look names for what it left, so a time lowered meanwhile
     * by another thread is kept.
     */
    void drain(int bucket, int pageSize, Supplier<Look> look) {
        Look page;
        do {
            times.set(bucket, BucketSet.NONE);
            page = look.get();
            lower(bucket, page.next());
        } while (page.handled() >= pageSize);
    }

    /**
     * Runs {@code visit} on each bucket due at {@code now}; answers when the next one is due. A bucket whose visit
     * fails is due again at once and holds up no other (with Redis Cluster its keys may live on another node); the
     * first failure is thrown once every bucket has been visited, so the loop pauses before it retries.
     */
    long visitDue(long now, IntConsumer visit) {
        RuntimeException failure = null;
        for (int b : due(now)) {
            try {
                visit.accept(b);
            } catch (RuntimeException e) {
                lower(b, now);
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return next();
    }

    /**
     * {@link #visitDue} and {@link #drain} of every due bucket together: {@code look} gets the due buckets in
     * ascending order and answers a look per bucket; those whose page came back full are looked at again. Answers when
     * the next bucket is due.
     */
    long visitDueTogether(long now, int pageSize, Function<int[], Look[]> look) {
        int[] due = due(now);
        while (due.length > 0) {
            for (int b : due) {
                times.set(b, BucketSet.NONE);
            }
            Look[] looks;
            try {
                looks = look.apply(due);
            } catch (RuntimeException e) {
                for (int b : due) {
                    lower(b, now);
                }
                throw e;
            }
            int full = 0;
            for (int i = 0; i < due.length; i++) {
                lower(due[i], looks[i].next());
                if (looks[i].handled() >= pageSize) {
                    due[full++] = due[i];
                }
            }
            due = Arrays.copyOf(due, full);
        }
        return next();
    }

    /** The buckets due at {@code now}, ascending: every one when a refresh is due. */
    private int[] due(long now) {
        boolean refresh = now - lastRefresh >= refreshMs;
        if (refresh) {
            lastRefresh = now;
        }
        return IntStream.range(0, times.length()).filter(b -> refresh || times.get(b) <= now).toArray();
    }

    /** When the next bucket is due, or the next refresh if that is sooner. */
    private long next() {
        return Math.min(lastRefresh + refreshMs, earliest());
    }

    private long earliest() {
        long earliest = BucketSet.NONE;
        for (int b = 0; b < times.length(); b++) {
            earliest = Math.min(earliest, times.get(b));
        }
        return earliest;
    }

    /**
     * One look at a bucket.
     *
     * @param handled how many items it took
     * @param next    when the bucket needs attention again for what it left, or {@link BucketSet#NONE}
     */
    record Look(int handled, long next) {
    }
}
