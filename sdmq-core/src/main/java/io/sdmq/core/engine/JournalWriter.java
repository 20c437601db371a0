package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.MessageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Group commit: one thread drains a bounded queue of pending MySQL writes into one transaction per kind.
 * Callers of {@link #insert} and {@link #commit} wait for the commit; {@link #record} does not wait.
 * Writes are applied in the order they were queued, so a message's transitions reach MySQL in order.
 */
final class JournalWriter implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(JournalWriter.class);
    private static final int ATTEMPTS = 3;
    /** How long after its last write a writer still counts as busy: the gap between two waves of callers. */
    private static final long QUIET_NANOS = Duration.ofMillis(20).toNanos();
    private static final long YIELD_POLL_NANOS = Duration.ofMillis(1).toNanos();

    private final MessageLog messageLog;
    private final BlockingQueue<Write> queue;
    private final int batch;
    private final Duration writeTimeout;
    private final long lingerNanos;
    private final int capacity;
    private final BooleanSupplier yieldWhile;
    private final long maxYieldNanos;
    private final AtomicInteger flushesWaiting = new AtomicInteger();
    /** Messages and transitions queued and not yet taken by the writer: a hint for choosing among writers. */
    private final AtomicInteger queuedRows = new AtomicInteger();
    private volatile boolean writing;
    private volatile long lastWriteEnd = System.nanoTime() - QUIET_NANOS;

    /**
     * @param linger  how long to gather writes after the first one arrives, unless the batch fills sooner
     * @param yieldWhile whether the writers whose work goes first in a burst are busy (see {@link #yieldInBurst}),
     *                   or null
     * @param maxYield   how long a write may have been queued and still wait for those writers
     */
    JournalWriter(MessageLog messageLog, int capacity, int batch, Duration writeTimeout, Duration linger,
                  BooleanSupplier yieldWhile, Duration maxYield) {
        this.messageLog = messageLog;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.capacity = capacity;
        this.batch = batch;
        this.writeTimeout = writeTimeout;
        this.lingerNanos = linger.toNanos();
        this.yieldWhile = yieldWhile;
        this.maxYieldNanos = maxYield.toNanos();
    }

    /** New messages, or a transition, or neither: a flush, done once everything queued before it is. */
    private record Write(List<Message> messages, Transition transition, CompletableFuture<List<Long>> done,
                         long queuedAt) {
        Write(List<Message> messages, Transition transition, CompletableFuture<List<Long>> done) {
            this(messages, transition, done, System.nanoTime());
        }

        boolean isFlush() {
            return messages == null && transition == null;
        }

        int rows() {
            return messages != null ? messages.size() : transition != null ? 1 : 0;
        }
    }

    /** Stores a new message as WAIT_PUT; answers the id that holds its (topic, bizKey) once committed. */
    long insert(Message message) {
        return insertAll(List.of(message)).get(0);
    }

    /** Stores new messages as WAIT_PUT in one transaction; answers, in order, the ids holding their keys. */
    List<Long> insertAll(List<Message> messages) {
        return await(enqueue(new Write(List.copyOf(messages), null, new CompletableFuture<>())));
    }

    /** Applies a transition and waits for its commit (terminal transitions). */
    void commit(Transition transition) {
        commitAll(List.of(transition));
    }

    /** Applies transitions and waits until all are committed; queued together, they share transactions. */
    void commitAll(List<Transition> transitions) {
        List<CompletableFuture<List<Long>>> commits = new ArrayList<>(transitions.size());
        for (Transition transition : transitions) {
            commits.add(enqueue(new Write(null, transition, new CompletableFuture<>())));
        }
        commits.forEach(this::await);
    }

    /** Waits until every write queued before this call is committed (or has failed). */
    void flush() {
        flushesWaiting.incrementAndGet();
        try {
            await(enqueue(new Write(null, null, new CompletableFuture<>())));
        } finally {
            flushesWaiting.decrementAndGet();
        }
    }

    /** Applies a transition in the background (non-terminal transitions); blocks only while the queue is full. */
    void record(Transition transition) {
        queuedRows.incrementAndGet();
        try {
            queue.put(new Write(null, transition, null));
        } catch (InterruptedException e) {
            queuedRows.decrementAndGet();
            Thread.currentThread().interrupt();
            log.warn("interrupted; transition {} -> {} of message {} not journaled", transition.from(),
                    transition.to(), transition.messageId());
        }
    }

    int pending() {
        return queue.size();
    }

    /** Messages and transitions queued, not counting those being written. */
    int queuedRows() {
        return queuedRows.get();
    }

    /** Writes queued, one under way, or one ended less than {@link #QUIET_NANOS} ago. */
    boolean busy() {
        return writing || !queue.isEmpty() || System.nanoTime() - lastWriteEnd < QUIET_NANOS;
    }

    private CompletableFuture<List<Long>> enqueue(Write write) {
        queuedRows.addAndGet(write.rows());
        try {
            if (!queue.offer(write, writeTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                queuedRows.addAndGet(-write.rows());
                throw new UnavailableException("the MySQL write queue is full; retry later", null);
            }
        } catch (InterruptedException e) {
            queuedRows.addAndGet(-write.rows());
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while queueing a MySQL write", e);
        }
        return write.done();
    }

    private List<Long> await(CompletableFuture<List<Long>> done) {
        try {
            return done.get(writeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new UnavailableException("MySQL is unavailable; nothing was accepted, retry later", e.getCause());
        } catch (TimeoutException e) {
            throw new UnavailableException("MySQL did not commit within " + writeTimeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting for MySQL", e);
        }
    }

    @Override
    public void run() {
        List<Write> drained = new ArrayList<>(batch);
        while (!Thread.currentThread().isInterrupted()) {
            try {
                drained.add(queue.take());
                linger(drained);
                queue.drainTo(drained, batch - drained.size());
                taken(drained);
                yieldInBurst(drained);
                writing = true;
                writeAll(drained);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                log.error("journal writer failed on {} writes; continuing with the next batch", drained.size(), t);
            } finally {
                writing = false;
                lastWriteEnd = System.nanoTime();
                drained.clear();
            }
        }
        flushRemaining();
    }

    private void taken(List<Write> drained) {
        queuedRows.addAndGet(-drained.stream().mapToInt(Write::rows).sum());
    }

    /**
     * In a burst, when a full batch is waiting or more, waits while the writers it yields to are busy, so that the
     * writes callers wait for (pushes, finishes) have MySQL to themselves and the burst's background writes come
     * after it; they are then the same rows and statements, only later. It stops yielding once half its capacity is
     * queued (a full queue would hold up deliveries), once the batch's oldest write has been queued for maxYield (so
     * under a load that never lets up the background lags by that much at most), when a flush is waiting, and on an
     * interrupt. Below a full batch, the steady state, it never waits.
     */
    private void yieldInBurst(List<Write> drained) {
        if (yieldWhile == null) {
            return;
        }
        long until = drained.get(0).queuedAt() + maxYieldNanos;
        while (drained.size() + queue.size() >= batch && queue.size() < capacity / 2 && yieldWhile.getAsBoolean()
                && System.nanoTime() - until < 0 && flushesWaiting.get() == 0
                && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(YIELD_POLL_NANOS);
        }
    }

    /**
     * Gathers writes for the linger time or until the batch is full; a flush or an interrupt ends it early, keeping
     * what it gathered.
     */
    private void linger(List<Write> drained) {
        long deadline = System.nanoTime() + lingerNanos;
        int seen = 0;
        try {
            while (drained.size() < batch) {
                for (; seen < drained.size(); seen++) {
                    if (drained.get(seen).isFlush()) {
                        return;
                    }
                }
                long left = deadline - System.nanoTime();
                Write next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                if (next == null) {
                    return;
                }
                drained.add(next);
                queue.drainTo(drained, batch - drained.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void flushRemaining() {
        List<Write> drained = new ArrayList<>();
        while (queue.drainTo(drained, batch) > 0) {
            taken(drained);
            writeAll(drained);
            drained.clear();
        }
    }

    private void writeAll(List<Write> writes) {
        List<Write> inserts = writes.stream().filter(w -> w.messages() != null).toList();
        List<Write> transitions = writes.stream().filter(w -> w.transition() != null).toList();
        if (inserts.isEmpty() || transitions.isEmpty() || !writeTogether(inserts, transitions)) {
            if (!inserts.isEmpty()) {
                writeInserts(inserts);
            }
            if (!transitions.isEmpty()) {
                writeTransitions(transitions);
            }
        }
        writes.stream().filter(Write::isFlush).forEach(flush -> flush.done().complete(List.of()));
    }

    /**
     * New messages and transitions in one transaction, one commit; false when it failed, and nothing was written,
     * so the caller writes them apart, each with its own handling of failure.
     */
    private boolean writeTogether(List<Write> inserts, List<Write> transitions) {
        try {
            complete(inserts, messageLog.insertAndApply(messages(inserts),
                    transitions.stream().map(Write::transition).toList()));
        } catch (RuntimeException e) {
            log.warn("could not write {} new messages and {} transitions together ({}); writing them apart",
                    inserts.size(), transitions.size(), rootCause(e));
            return false;
        }
        transitions.stream().filter(w -> w.done() != null).forEach(w -> w.done().complete(List.of()));
        return true;
    }

    private static List<Message> messages(List<Write> inserts) {
        return inserts.stream().flatMap(w -> w.messages().stream()).toList();
    }

    /** Completes each insert with its messages' share of {@code ids}, in order. */
    private static void complete(List<Write> inserts, List<Long> ids) {
        int from = 0;
        for (Write write : inserts) {
            int to = from + write.messages().size();
            write.done().complete(ids.subList(from, to));
            from = to;
        }
    }

    private void writeInserts(List<Write> inserts) {
        List<Message> messages = messages(inserts);
        try {
            complete(inserts, messageLog.insert(messages));
        } catch (RuntimeException e) {
            log.error("could not insert {} messages ({}); their pushes answer 503", messages.size(), rootCause(e));
            inserts.forEach(w -> w.done().completeExceptionally(e));
        }
    }

    private void writeTransitions(List<Write> writes) {
        List<Transition> transitions = writes.stream().map(Write::transition).toList();
        for (int attempt = 1; ; attempt++) {
            try {
                messageLog.apply(transitions);
                writes.stream().filter(w -> w.done() != null).forEach(w -> w.done().complete(List.of()));
                return;
            } catch (RuntimeException e) {
                if (attempt == ATTEMPTS) {
                    log.error("could not journal {} transitions after {} attempts ({}); waiting callers answer 503, "
                            + "the others are left for recovery", transitions.size(), ATTEMPTS, rootCause(e));
                    writes.stream().filter(w -> w.done() != null).forEach(w -> w.done().completeExceptionally(e));
                    return;
                }
                log.warn("could not journal {} transitions ({}); will retry in 1 s",
                        transitions.size(), e.getMessage());
                sleepQuietly();
            }
        }
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
