package io.sdmq.server.ui;

import io.sdmq.server.instances.InstanceEntry;

import java.time.Instant;

/** An instance as the Instances page shows it: {@link InstanceEntry} with its times as instants. */
record InstanceRow(String instance, String host, Instant startedAt, Instant lastSeen, boolean up, long schedulerLagMs,
                   long statusLogPending, int pushTopics, String version) {
    static InstanceRow of(InstanceEntry e) {
        return new InstanceRow(e.instance(), e.host(), Instant.ofEpochMilli(e.startedAt()),
                Instant.ofEpochMilli(e.lastSeen()), e.up(), e.schedulerLagMs(), e.statusLogPending(), e.pushTopics(),
                e.version());
    }
}
