package io.sdmq.server.recovery;

import io.sdmq.core.RestoreCounts;

/**
 * The latest restore of the deployment, whichever instance runs it, as {@code GET /reStore/progress} shows it.
 *
 * @param running    it runs now
 * @param instance   the instance running it
 * @param startedAt  when it started, epoch ms
 * @param finishedAt when it ended, epoch ms; null while it runs, or when its instance stopped before it ended
 * @param failure    why it failed, or null
 */
public record RestoreProgress(boolean running, String instance, long startedAt, Long finishedAt, long scanned,
                              long restored, long alreadyPresent, long expired, long gone, String failure) {

    /** A restore under way with these counts so far. */
    static RestoreProgress inProgress(String instance, long startedAt, RestoreCounts c) {
        return new RestoreProgress(true, instance, startedAt, null, c.scanned(), c.restored(), c.alreadyPresent(),
                c.expired(), c.gone(), null);
    }

    /** This restore ended at {@code at}, with these counts and, when it failed, why. */
    RestoreProgress ended(long at, RestoreCounts c, String failure) {
        return new RestoreProgress(false, instance, startedAt, at, c.scanned(), c.restored(), c.alreadyPresent(),
                c.expired(), c.gone(), failure);
    }

    /** This restore, whose instance stopped before it ended. */
    RestoreProgress abandoned() {
        return new RestoreProgress(false, instance, startedAt, null, scanned, restored, alreadyPresent, expired, gone,
                "the instance " + instance + " stopped before the restore ended; restore again");
    }
}
