package io.sdmq.core.spi;

/** The buckets a schedule is sharded into: a message lives in bucket {@code Buckets.of(id, buckets())}. */
public interface BucketSet {

    /** A score or deadline meaning "nothing scheduled". */
    long NONE = Long.MAX_VALUE;

    int buckets();

    /** The name of a bucket as the status log records it. */
    String bucketName(int bucket);
}
