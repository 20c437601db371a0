package io.sdmq.common;

/** Which bucket holds a message: a mixed hash of its id modulo the bucket count. */
public final class Buckets {
    private Buckets() {
    }

    public static int of(long id, int buckets) {
        long mixed = id * 0x9E3779B97F4A7C15L;
        return Math.floorMod(mixed ^ (mixed >>> 29), buckets);
    }
}
