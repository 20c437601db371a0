package io.sdmq.core.engine;

import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;

/** What a restore did so far, message by message. */
final class RestoreTally {
    private long scanned;
    private long restored;
    private long present;
    private long expired;
    private long gone;

    void skipped(int rows) {
        scanned += rows;
    }

    void count(RestoreOutcome outcome) {
        scanned++;
        switch (outcome) {
            case RESTORED -> restored++;
            case ALREADY_PRESENT -> present++;
            case EXPIRED -> expired++;
            case GONE -> gone++;
        }
    }

    RestoreCounts counts() {
        return new RestoreCounts(scanned, restored, present, expired, gone);
    }
}
