package io.sdmq.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Which bucket holds a message: a mixed hash of its id modulo the bucket count. */
public final class Buckets {
    private Buckets() {
    }

    public static int of(long id, int buckets) {
        long mixed = id * 0x9E3779B97F4A7C15L;
        return Math.floorMod(mixed ^ (mixed >>> 29), buckets);
    }

    /**
     * The positions in {@code ids} grouped by the bucket of the id there: buckets in ascending order, positions in
     * the order of {@code ids}. A batch call groups by this, so it makes one store call per bucket.
     */
    public static Map<Integer, List<Integer>> positions(List<Long> ids, int buckets) {
        Map<Integer, List<Integer>> byBucket = new TreeMap<>();
        for (int i = 0; i < ids.size(); i++) {
            byBucket.computeIfAbsent(of(ids.get(i), buckets), b -> new ArrayList<>()).add(i);
        }
        return byBucket;
    }
}
