package io.sdmq.common;

import cn.hutool.core.lang.Snowflake;

/** Snowflake ids (hutool) for one worker number in 0..1023, split into hutool's worker and datacenter ids. */
public final class SnowflakeIdGenerator implements IdGenerator {
    public static final int MAX_WORKERS = 1024;

    private final Snowflake snowflake;

    public SnowflakeIdGenerator(int worker) {
        if (worker < 0 || worker >= MAX_WORKERS) {
            throw new IllegalArgumentException("worker must be in 0.." + (MAX_WORKERS - 1) + ", was " + worker);
        }
        // a random sequence start spreads ids of a quiet server over all buckets
        this.snowflake = new Snowflake(null, worker % 32, worker / 32, false, 32);
    }

    @Override
    public long nextId() {
        return snowflake.nextId();
    }
}
