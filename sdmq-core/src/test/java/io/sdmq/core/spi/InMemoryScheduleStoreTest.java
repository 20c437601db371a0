package io.sdmq.core.spi;

import java.time.Duration;

class InMemoryScheduleStoreTest extends ScheduleStoreContract {
    @Override
    protected Stores newStores(int buckets) {
        InMemoryScheduleStore store = new InMemoryScheduleStore(buckets, DEFAULT_RETRY_DELAYS,
                Duration.ofMillis(COLD_AFTER_MS));
        return new Stores(store, store, store);
    }

    @Override
    protected long goneMs() {
        return InMemoryScheduleStore.GONE_MS;
    }
}
