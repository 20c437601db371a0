package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
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
import java.util.function.LongSupplier;

/**
 * Group commit: one thread drains a bounded queue of pending MySQL writes into one transaction per batch.
 * Callers of {@link #insertAll} and {@link #commitAll} wait for the commit; {@link #record} does not wait.
 * Writes are applied in the order they were queued, so a message's transitions reach MySQL in order. Time is read
 * from the ticker it is given (nanoseconds), so tests step it.
 */
final class StatusLogWriter implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(StatusLogWriter.class);
    /** How long after its last write a writer still counts as busy: the gap between two waves of callers. */
    static final long QUIET_NANOS = Duration.ofMillis(20).toNanos();
    private static final long YIELD_POLL_NANOS = Duration.ofMillis(1).toNanos();

    /**
     * When to hold a full batch back: while {@code busy} says the writers whose work goes first are busy, for up to
     * {@code maxNanos} after the batch's oldest write was queued (see {@link #yieldInBurst}).
     */
    record Yielding(BooleanSupplier busy, long maxNanos) {
        static final Yielding NEVER = new Yielding(() -> false, 0);
    }

    private final BatchWriter batchWriter;
    private final BlockingQueue<PendingWrite> queue;
    private final int capacity;
    private final int batch;
    private final Duration writeTimeout;
    private final long lingerNanos;
    private final Yielding yielding;
    private final LongSupplier ticker;
    private final AtomicInteger flushesWaiting = new AtomicInteger();
    private volatile boolean writing;
    private volatile long lastWriteEnd;

    /** @param linger how long to gather writes after the first one arrives, unless the batch fills sooner */
    StatusLogWriter(BatchWriter batchWriter, int capacity, int batch, Duration writeTimeout, Duration linger,
                    Yielding yielding, LongSupplier ticker) {
        this.batchWriter = batchWriter;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.capacity = capacity;
        this.batch = batch;
        this.writeTimeout = writeTimeout;
        this.lingerNanos = linger.toNanos();
        this.yielding = yielding;
        this.ticker = ticker;
        this.lastWriteEnd = ticker.getAsLong() - QUIET_NANOS;
    }

    /** Stores new messages as WAIT_PUT in one transaction; answers, in order, the ids holding their keys. */
    List<Long> insertAll(List<Message> messages) {
        return await(enqueue(List.copyOf(messages), null));
    }

    /** Applies transitions and waits until all are committed; queued together, they share transactions. */
    void commitAll(List<Transition> transitions) {
        List<CompletableFuture<List<Long>>> commits = new ArrayList<>(transitions.size());
        for (Transition transition : transitions) {
            commits.add(enqueue(null, transition));
        }
        commits.forEach(this::await);
    }

    /** Waits until every write queued before this call is committed (or has failed). */
    void flush() {
        flushesWaiting.incrementAndGet();
        try {
            await(enqueue(null, null));
        } finally {
            flushesWaiting.decrementAndGet();
        }
    }

    /** Applies a transition in the background (non-terminal transitions); blocks only while the queue is full. */
    void record(Transition transition) {
        try {
            queue.put(new PendingWrite(null, transition, null, ticker.getAsLong()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("interrupted; transition {} -> {} of message {} not written", transition.from(),
                    transition.to(), transition.messageId());
        }
    }

    int pending() {
        return queue.size();
    }

    /** Writes queued, one under way, or one ended less than {@link #QUIET_NANOS} ago. */
    boolean busy() {
        return writing || !queue.isEmpty() || ticker.getAsLong() - lastWriteEnd < QUIET_NANOS;
    }

    private CompletableFuture<List<Long>> enqueue(List<Message> messages, Transition transition) {
        PendingWrite write = new PendingWrite(messages, transition, new CompletableFuture<>(), ticker.getAsLong());
        try {
            if (!queue.offer(write, writeTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new UnavailableException("the MySQL write queue is full; retry later", null);
            }
        } catch (InterruptedException e) {
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
        List<PendingWrite> drained = new ArrayList<>(batch);
        while (!Thread.currentThread().isInterrupted()) {
            try {
                drained.add(queue.take());
                linger(drained);
                queue.drainTo(drained, batch - drained.size());
                yieldInBurst(drained);
                writing = true;
                batchWriter.write(drained);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                log.error("status log writer failed on {} writes; continuing with the next batch", drained.size(), t);
            } finally {
                writing = false;
                lastWriteEnd = ticker.getAsLong();
                drained.clear();
            }
        }
        writeRemaining();
    }

    /**
     * In a burst, when a full batch is waiting or more, waits while the writers it yields to are busy, so that the
     * writes callers wait for (pushes, finishes) have MySQL to themselves and the burst's background writes come
     * after it; they are then the same rows and statements, only later. It stops yielding once half its capacity is
     * queued (a full queue would hold up deliveries), once the batch's oldest write has been queued for the longest
     * yield (so under a load that never lets up the background lags by that much at most), when a flush is waiting,
     * and on an interrupt. Below a full batch, the steady state, it never waits.
     */
    private void yieldInBurst(List<PendingWrite> drained) {
        long until = drained.get(0).queuedAt() + yielding.maxNanos();
        while (drained.size() + queue.size() >= batch && queue.size() < capacity / 2 && yielding.busy().getAsBoolean()
                && ticker.getAsLong() - until < 0 && flushesWaiting.get() == 0
                && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(YIELD_POLL_NANOS);
        }
    }

    /**
     * Gathers writes for the linger time or until the batch is full; a flush or an interrupt ends it early, keeping
     * what it gathered.
     */
    private void linger(List<PendingWrite> drained) {
        long deadline = ticker.getAsLong() + lingerNanos;
        int seen = 0;
        try {
            while (drained.size() < batch) {
                for (; seen < drained.size(); seen++) {
                    if (drained.get(seen).isFlush()) {
                        return;
                    }
                }
                long left = deadline - ticker.getAsLong();
                PendingWrite next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
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

    private void writeRemaining() {
        List<PendingWrite> drained = new ArrayList<>();
        while (queue.drainTo(drained, batch) > 0) {
            batchWriter.write(drained);
            drained.clear();
        }
    }
}
