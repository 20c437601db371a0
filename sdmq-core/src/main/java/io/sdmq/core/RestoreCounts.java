package io.sdmq.core;

/**
 * What a restore from MySQL did.
 *
 * @param scanned        non-terminal rows read
 * @param restored       put back into Redis
 * @param alreadyPresent left alone: Redis held them
 * @param expired        overdue and marked EXPIRED ({@code expire=false})
 * @param gone           skipped: finished, deleted or dead while the restore ran
 */
public record RestoreCounts(long scanned, long restored, long alreadyPresent, long expired, long gone) {
}
