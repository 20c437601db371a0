package io.sdmq.server.instances;

/**
 * One instance as {@code GET /instances} shows it.
 *
 * @param instance         its name in the status log ({@code sdmq.host}, or host name and process id)
 * @param host             the host it runs on
 * @param startedAt        when it started, epoch ms
 * @param lastSeen         when it last wrote its entry, epoch ms by its own clock
 * @param up               its entry was written within the last two refresh periods
 * @param schedulerLagMs   how far its scheduler runs behind the earliest due time it knows of; 0 while it keeps up
 * @param statusLogPending MySQL writes it has queued and not yet committed ({@code sdmq.journal.pending})
 * @param pushTopics       topics whose push delivery it runs
 * @param version          the sdmq version it runs
 */
public record InstanceEntry(String instance, String host, long startedAt, long lastSeen, boolean up,
                            long schedulerLagMs, long statusLogPending, int pushTopics, String version) {
}
