package io.sdmq.bench;

import java.time.Instant;

/** Wall-clock time in microseconds: the same clock the server's due times come from, finer than a millisecond. */
final class Clock {
    private Clock() {
    }

    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
