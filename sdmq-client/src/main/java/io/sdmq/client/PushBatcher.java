package io.sdmq.client;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Gathers the pushes of any number of threads into batches: one sender thread drains the buffer into an open batch
 * per {@code onDuplicate} (the server wants one policy per batch) and sends a batch when it holds {@code maxBatch}
 * messages or its oldest message has waited {@code linger}, with at most {@code maxInFlightBatches} batches sent
 * and not yet answered, each on a thread of its own that waits for the answer and completes the messages' futures
 * (so callbacks on them run there and should not block). A caller of {@link #push} that finds no batch in flight
 * and no message waiting sends its own message on its thread, as a batch of one; otherwise its message joins a batch
 * that leaves without lingering as soon as no batch is in flight, so the linger holds back mainly the pushes nobody
 * waits for. The buffer counts the messages accepted and not yet sent, at most {@code bufferSize}; while
 * the sender waits for a batch to end, it fills, and pushes block or fail.
 *
 * <p>{@link #close} stops taking messages, has the sender send every one it took (without waiting for the linger),
 * and returns when every batch is answered. A push that races with close is either refused or sent: the push holds a
 * read lock while it enters the buffer, close takes the write lock to shut the door.
 */
final class PushBatcher implements AutoCloseable {
    private static final System.Logger log = System.getLogger(PushBatcher.class.getName());
    /** Put in the queue to wake the sender at once: by {@link #close}, and when the last batch in flight ends. */
    private static final Pending WAKE_UP = new Pending(PushMessage.of("-", "-"), null, 0, false);

    private final ClientSettings settings;
    private final SendBatch sendBatch;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Semaphore room;
    private final Semaphore inFlight;
    private final ReadWriteLock door = new ReentrantReadWriteLock();
    private final Thread sender;
    /** Runs the batches in flight, one thread each. */
    private final ExecutorService batches;
    private volatile boolean closed;

    PushBatcher(ClientSettings settings, SendBatch sendBatch) {
        this.settings = settings;
        this.sendBatch = sendBatch;
        this.room = new Semaphore(settings.bufferSize());
        this.inFlight = new Semaphore(settings.maxInFlightBatches());
        AtomicInteger threads = new AtomicInteger();
        this.batches = Executors.newFixedThreadPool(settings.maxInFlightBatches(), task -> {
            Thread thread = new Thread(task, "sdmq-client-batch-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.sender = new Thread(this::run, "sdmq-client-sender");
        sender.setDaemon(true);
        sender.start();
    }

    /**
     * Puts {@code message} in the buffer; its future completes with the id once the server committed it. A full
     * buffer blocks the caller, or fails the future, as {@code whenBufferFull} says; so does a closed batcher.
     */
    CompletableFuture<String> add(PushMessage message) {
        return add(message, false);
    }

    private CompletableFuture<String> add(PushMessage message, boolean waiting) {
        door.readLock().lock();
        try {
            if (closed) {
                return CompletableFuture.failedFuture(new SdmqClientException.Closed("the client is closed"));
            }
            if (settings.whenBufferFull() == WhenBufferFull.BLOCK) {
                room.acquireUninterruptibly();
            } else if (!room.tryAcquire()) {
                return CompletableFuture.failedFuture(new SdmqClientException.BufferFull("the client's buffer holds "
                        + settings.bufferSize() + " messages not yet sent (bufferSize), and whenBufferFull is FAIL"));
            }
            Pending pending = new Pending(message, new CompletableFuture<>(), System.nanoTime(), waiting);
            queue.add(pending);
            return pending.id();
        } finally {
            door.readLock().unlock();
        }
    }

    /**
     * {@link #add} for a caller that waits for the id. When nothing is waiting to be sent and no batch is in flight,
     * the caller sends its message itself, as a batch of one, sparing the hand-offs to the sender and back, and holds
     * every batch slot meanwhile: the pushes of other threads gather into the next batch instead of each going alone.
     * Otherwise it joins the next batch, which leaves once no batch is in flight or when it has lingered, whichever
     * comes first. Either way no message of the buffer is overtaken.
     */
    String push(PushMessage message) {
        Pending pending;
        door.readLock().lock();
        try {
            if (closed || room.availablePermits() < settings.bufferSize()
                    || !inFlight.tryAcquire(settings.maxInFlightBatches())) {
                pending = null;
            } else {
                pending = new Pending(message, new CompletableFuture<>(), System.nanoTime(), true);
            }
        } finally {
            door.readLock().unlock();
        }
        if (pending == null) {
            return await(add(message, true));
        }
        try {
            sendBatch.send(List.of(pending));
        } finally {
            released(settings.maxInFlightBatches());
        }
        return await(pending.id());
    }

    /** The value of {@code future}, waited for; its failure thrown as it is, not wrapped. */
    private static String await(CompletableFuture<String> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }

    /** Sends every message accepted so far and waits until each has its outcome; later pushes fail. */
    @Override
    public void close() {
        door.writeLock().lock();
        try {
            closed = true;
        } finally {
            door.writeLock().unlock();
        }
        queue.add(WAKE_UP);
        boolean interrupted = false;
        while (sender.isAlive()) {
            try {
                sender.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        batches.shutdown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        Map<OnDuplicate, List<Pending>> open = new EnumMap<>(OnDuplicate.class);
        Set<OnDuplicate> waitedFor = EnumSet.noneOf(OnDuplicate.class);
        List<Pending> taken = new ArrayList<>();
        while (!closed || !queue.isEmpty() || !open.isEmpty()) {
            try {
                takeInto(taken, open);
                for (Pending p : taken) {
                    OnDuplicate policy = p.message().onDuplicate();
                    List<Pending> batch = open.computeIfAbsent(policy, none -> new ArrayList<>());
                    batch.add(p);
                    if (p.waiting()) {
                        waitedFor.add(policy);
                    }
                    if (batch.size() == settings.maxBatch()) {
                        dispatch(open.remove(policy));
                        waitedFor.remove(policy);
                    }
                }
                taken.clear();
                dispatchDue(open, waitedFor);
            } catch (Throwable t) {
                log.log(System.Logger.Level.ERROR, "the sdmq client's sender failed; it goes on", t);
            }
        }
        inFlight.acquireUninterruptibly(settings.maxInFlightBatches());
    }

    /**
     * Waits for a message (or for the last batch in flight to end), at most until the oldest open batch has lingered
     * enough, then takes what else is there.
     */
    private void takeInto(List<Pending> taken, Map<OnDuplicate, List<Pending>> open) throws InterruptedException {
        long wait = TimeUnit.SECONDS.toNanos(1);
        for (List<Pending> batch : open.values()) {
            wait = Math.min(wait, batch.get(0).acceptedNanos() + settings.linger().toNanos() - System.nanoTime());
        }
        Pending first = closed ? queue.poll() : queue.poll(Math.max(wait, 0), TimeUnit.NANOSECONDS);
        if (first != null) {
            taken.add(first);
            queue.drainTo(taken, settings.bufferSize());
        }
        taken.removeIf(p -> p == WAKE_UP);
    }

    /**
     * Sends each open batch whose oldest message has waited the linger, or that holds a message a caller waits for
     * ({@code waitedFor}) while no batch is in flight; every open batch once closed.
     */
    private void dispatchDue(Map<OnDuplicate, List<Pending>> open, Set<OnDuplicate> waitedFor) {
        long now = System.nanoTime();
        open.entrySet().removeIf(entry -> {
            boolean due = closed || now - entry.getValue().get(0).acceptedNanos() >= settings.linger().toNanos()
                    || (waitedFor.contains(entry.getKey()) && noneInFlight());
            if (due) {
                dispatch(entry.getValue());
                waitedFor.remove(entry.getKey());
            }
            return due;
        });
    }

    /** Waits for room among the batches in flight, frees the batch's room in the buffer and sends it. */
    private void dispatch(List<Pending> batch) {
        inFlight.acquireUninterruptibly();
        room.release(batch.size());
        batches.execute(() -> {
            try {
                sendBatch.send(batch);
            } finally {
                released(1);
            }
        });
    }

    /**
     * Gives back batch slots; when none is in use any more and messages wait to be sent, wakes the sender for the
     * batches that wait for that.
     */
    private void released(int slots) {
        inFlight.release(slots);
        if (noneInFlight() && room.availablePermits() < settings.bufferSize()) {
            queue.add(WAKE_UP);
        }
    }

    private boolean noneInFlight() {
        return inFlight.availablePermits() == settings.maxInFlightBatches();
    }
}
