package io.sdmq.core.spi;

class InMemoryScheduleStoreTest extends ScheduleStoreContract {
    @Override
    protected ScheduleStore newStore(int buckets) {
        return new InMemoryScheduleStore(buckets, DEFAULT_RETRY_DELAYS);
    }
}
