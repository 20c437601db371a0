package io.sdmq.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Pushes messages [0, messages) of a run to one topic, each body carrying its sequence number and due time, and
 * reports the answer to every call. Unpaced: producer threads each send one call at a time. Paced (one message per
 * call): one thread sends call i at start + i / rate without waiting for replies, at most inflight at once, so a slow
 * reply does not lower the offered rate.
 */
final class Producers {
    /** When a message pushed at now (epoch ms) is due. */
    interface DueTime {
        long of(long now);
    }

    /** The answer to call number call, which pushed messages [from, to): acknowledged or not, after nanos. */
    interface Answer {
        void answered(int call, int from, int to, boolean ok, long nanos);
    }

    private final Target target;
    private final String topic;

    Producers(Target target, String topic) {
        this.target = target;
        this.topic = topic;
    }

    /** Calls of batch messages from {@code threads} threads; returns when every call was answered. */
    void unpaced(int threads, int messages, int batch, DueTime due, Answer answer) throws Exception {
        int calls = (messages + batch - 1) / batch;
        AtomicInteger nextCall = new AtomicInteger();
        parallel(threads, () -> {
            int call;
            while ((call = nextCall.getAndIncrement()) < calls) {
                int from = call * batch;
                int to = Math.min(messages, from + batch);
                List<Target.Outgoing> outgoing = outgoing(from, to, due);
                long sent = System.nanoTime();
                boolean ok;
                try {
                    ok = target.push(topic, outgoing);
                } catch (IOException e) {
                    ok = false;
                }
                answer.answered(call, from, to, ok, System.nanoTime() - sent);
            }
        });
    }

    /**
     * One message per {@link Target#pushAsync} from {@code threads} threads that do not wait for the answers (the
     * target bounds what is in flight); returns when every push was answered.
     */
    void unpacedAsync(int threads, int messages, DueTime due, Answer answer) throws Exception {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch answered = new CountDownLatch(messages);
        parallel(threads, () -> {
            int seq;
            while ((seq = next.getAndIncrement()) < messages) {
                int call = seq;
                long sent = System.nanoTime();
                target.pushAsync(topic, outgoing(call, call + 1, due).get(0)).whenComplete((ok, failure) -> {
                    answer.answered(call, call, call + 1, failure == null && ok, System.nanoTime() - sent);
                    answered.countDown();
                });
            }
        });
        answered.await();
    }

    /** One message per call at rate calls per second, at most inflight unanswered; returns when all were answered. */
    void paced(int messages, double rate, int inflight, DueTime due, Answer answer) throws InterruptedException {
        Semaphore slots = new Semaphore(inflight);
        long start = System.nanoTime();
        for (int call = 0; call < messages; call++) {
            parkUntil(start + (long) (call * 1e9 / rate));
            slots.acquire();
            int seq = call;
            long sent = System.nanoTime();
            target.pushAsync(topic, outgoing(call, call + 1, due).get(0)).whenComplete((ok, failure) -> {
                long nanos = System.nanoTime() - sent;
                answer.answered(seq, seq, seq + 1, failure == null && ok, nanos);
                slots.release();
            });
        }
        slots.acquire(inflight);
    }

    /** Messages [from, to) of a run, sent now. */
    private static List<Target.Outgoing> outgoing(int from, int to, DueTime due) {
        long now = System.currentTimeMillis();
        List<Target.Outgoing> outgoing = new ArrayList<>(to - from);
        for (int seq = from; seq < to; seq++) {
            long deliverAt = due.of(now);
            outgoing.add(new Target.Outgoing(Messages.body(seq, deliverAt, Workloads.BODY_SIZE), deliverAt));
        }
        return outgoing;
    }

    /** Runs task on n threads and waits for all; the first failure is rethrown. */
    private static void parallel(int n, Task task) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread thread = new Thread(() -> {
                try {
                    task.run();
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "producer-" + i);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private interface Task {
        void run() throws Exception;
    }

    private static void parkUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }
}
