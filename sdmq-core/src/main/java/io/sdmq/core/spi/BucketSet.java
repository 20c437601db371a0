package io.sdmq.core.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** The buckets a schedule is sharded into: a message lives in bucket {@code Buckets.of(id, buckets())}. */
public interface BucketSet {

    /** A score or deadline meaning "nothing scheduled". */
    long NONE = Long.MAX_VALUE;

    int buckets();

    /** The name of a bucket as the status log records it. */
    String bucketName(int bucket);

    /**
     * Makes {@code count} calls one by one (each is given its index), each whatever the others did: per call a
     * supplier of its answer that throws instead when it failed. How the ports' calls over several buckets are made
     * where they cannot go together.
     */
    static <T> List<Supplier<T>> oneByOne(int count, IntFunction<T> call) {
        List<Supplier<T>> answers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            try {
                T answer = call.apply(i);
                answers.add(() -> answer);
            } catch (RuntimeException e) {
                answers.add(failed(e));
            }
        }
        return answers;
    }

    /** The answer of a call over several buckets that failed for one of them: a supplier that throws the failure. */
    static <T> Supplier<T> failed(RuntimeException failure) {
        return () -> {
            throw failure;
        };
    }
}
