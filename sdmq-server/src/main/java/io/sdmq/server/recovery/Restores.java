package io.sdmq.server.recovery;

import io.sdmq.common.SdmqException;
import io.sdmq.core.Admin;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RestoreCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Runs a whole restore from MySQL on this instance, waited for or in the background, and publishes its progress to
 * Redis as it goes (after each page), so every instance can show it. A failure to publish is logged and never stops
 * the restore.
 */
public final class Restores {
    private static final Logger log = LoggerFactory.getLogger(Restores.class);
    private static final RestoreCounts NONE = new RestoreCounts(0, 0, 0, 0, 0);

    private final Admin admin;
    private final RestoreProgressBoard board;
    private final String instance;
    private final Clock clock;

    Restores(Admin admin, RestoreProgressBoard board, EngineSettings settings, Clock clock) {
        this.admin = admin;
        this.board = board;
        this.instance = settings.host();
        this.clock = clock;
    }

    /** Runs a restore and waits for it; 409 ({@code RestoreInProgressException}) while one runs on this instance. */
    public RestoreCounts run(boolean expire) {
        try {
            return begin(expire).future().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** Starts a restore in the background and answers its progress at the start; 409 as {@link #run} does. */
    public RestoreProgress start(boolean expire) {
        return begin(expire).started();
    }

    /** The latest restore of the deployment, on any instance; empty when none ever ran. */
    public Optional<RestoreProgress> latest() {
        return board.latest();
    }

    private Begun begin(boolean expire) {
        RestoreProgress started = RestoreProgress.inProgress(instance, clock.millis(), NONE);
        Tracker tracker = new Tracker(started);
        CompletableFuture<RestoreCounts> future = admin.startRestore(expire, tracker);
        return new Begun(started, future.whenComplete(tracker::ended));
    }

    private record Begun(RestoreProgress started, CompletableFuture<RestoreCounts> future) {
    }

    /** One restore's progress: zeros before it starts, its counts after each page, then its end. */
    private final class Tracker implements Consumer<RestoreCounts> {
        private final RestoreProgress started;
        private volatile RestoreCounts last = NONE;

        Tracker(RestoreProgress started) {
            this.started = started;
        }

        @Override
        public void accept(RestoreCounts counts) {
            last = counts;
            publish(RestoreProgress.inProgress(instance, started.startedAt(), counts));
        }

        void ended(RestoreCounts counts, Throwable failure) {
            if (failure == null) {
                publish(started.ended(clock.millis(), counts, null));
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            log.error("the restore failed after {} rows ({}); it can be started again", last.scanned(),
                    cause.toString());
            String reason = cause instanceof SdmqException ? cause.getMessage() : "the restore failed; see the log of "
                    + instance;
            publish(started.ended(clock.millis(), last, reason));
        }

        private void publish(RestoreProgress progress) {
            try {
                board.publish(progress);
            } catch (RuntimeException e) {
                log.warn("could not publish the restore's progress to Redis ({}); the restore goes on", e.toString());
            }
        }
    }
}
