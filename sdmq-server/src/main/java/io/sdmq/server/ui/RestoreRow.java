package io.sdmq.server.ui;

import io.sdmq.server.recovery.RestoreProgress;

import java.time.Instant;

/** A restore as the Recovery page shows it: {@link RestoreProgress} with its times as instants. */
record RestoreRow(boolean running, String instance, Instant startedAt, Instant finishedAt, long scanned,
                  long restored, long alreadyPresent, long expired, long gone, String failure) {
    static RestoreRow of(RestoreProgress p) {
        return new RestoreRow(p.running(), p.instance(), Instant.ofEpochMilli(p.startedAt()),
                p.finishedAt() == null ? null : Instant.ofEpochMilli(p.finishedAt()), p.scanned(), p.restored(),
                p.alreadyPresent(), p.expired(), p.gone(), p.failure());
    }
}
