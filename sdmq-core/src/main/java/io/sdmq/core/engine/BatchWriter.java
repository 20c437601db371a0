package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.core.spi.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Writes one batch of queued writes to MySQL: new messages and transitions in one transaction when it can, apart when
 * that fails, and completes each write's future with its outcome. Transitions are retried; new messages are not
 * (their callers answer 503 and may retry).
 */
final class BatchWriter {
    private static final Logger log = LoggerFactory.getLogger(BatchWriter.class);
    private static final int ATTEMPTS = 3;
    private static final long RETRY_PAUSE_MS = 1_000;

    private final MessageLog messageLog;

    BatchWriter(MessageLog messageLog) {
        this.messageLog = messageLog;
    }

    void write(List<PendingWrite> writes) {
        List<PendingWrite> inserts = writes.stream().filter(w -> w.messages() != null).toList();
        List<PendingWrite> transitions = writes.stream().filter(w -> w.transition() != null).toList();
        if (inserts.isEmpty() || transitions.isEmpty() || !writeTogether(inserts, transitions)) {
            if (!inserts.isEmpty()) {
                writeInserts(inserts);
            }
            if (!transitions.isEmpty()) {
                writeTransitions(transitions);
            }
        }
        writes.stream().filter(PendingWrite::isFlush).forEach(flush -> flush.done().complete(List.of()));
    }

    /**
     * New messages and transitions in one transaction, one commit; false when it failed, and nothing was written,
     * so the caller writes them apart, each with its own handling of failure.
     */
    private boolean writeTogether(List<PendingWrite> inserts, List<PendingWrite> transitions) {
        try {
            complete(inserts, messageLog.insertAndApply(messages(inserts),
                    transitions.stream().map(PendingWrite::transition).toList()));
        } catch (RuntimeException e) {
            log.warn("could not write {} new messages and {} transitions together ({}); writing them apart",
                    inserts.size(), transitions.size(), rootCause(e));
            return false;
        }
        completeAll(transitions);
        return true;
    }

    private void writeInserts(List<PendingWrite> inserts) {
        List<Message> messages = messages(inserts);
        try {
            complete(inserts, messageLog.insert(messages));
        } catch (RuntimeException e) {
            log.error("could not insert {} messages ({}); their pushes answer 503", messages.size(), rootCause(e));
            inserts.forEach(w -> w.done().completeExceptionally(e));
        }
    }

    private void writeTransitions(List<PendingWrite> writes) {
        List<Transition> transitions = writes.stream().map(PendingWrite::transition).toList();
        for (int attempt = 1; ; attempt++) {
            try {
                messageLog.apply(transitions);
                completeAll(writes);
                return;
            } catch (RuntimeException e) {
                if (attempt == ATTEMPTS) {
                    log.error("could not write {} transitions after {} attempts ({}); waiting callers answer 503, "
                            + "the others are left for recovery", transitions.size(), ATTEMPTS, rootCause(e));
                    writes.stream().filter(w -> w.done() != null).forEach(w -> w.done().completeExceptionally(e));
                    return;
                }
                log.warn("could not write {} transitions ({}); will retry in {} ms", transitions.size(),
                        rootCause(e), RETRY_PAUSE_MS);
                pause();
            }
        }
    }

    private static List<Message> messages(List<PendingWrite> inserts) {
        return inserts.stream().flatMap(w -> w.messages().stream()).toList();
    }

    /** Completes each insert with its messages' share of {@code ids}, in order. */
    private static void complete(List<PendingWrite> inserts, List<Long> ids) {
        int from = 0;
        for (PendingWrite write : inserts) {
            int to = from + write.messages().size();
            write.done().complete(ids.subList(from, to));
            from = to;
        }
    }

    private static void completeAll(List<PendingWrite> writes) {
        writes.stream().filter(w -> w.done() != null).forEach(w -> w.done().complete(List.of()));
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
