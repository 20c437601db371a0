package io.sdmq.spring;

import io.sdmq.client.SdmqClient;
import io.sdmq.spring.SdmqClientProperties.Listener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link ListenerEndpoint}: {@code concurrency} threads, each a {@link PollLoop}, and one thread that
 * touches the messages whose handler runs long. {@link #stop} lets each thread end its message, give back the ones
 * it has not started and finish the handled ones, then waits for them.
 */
public final class SdmqListenerContainer {
    private static final Logger log = LoggerFactory.getLogger(SdmqListenerContainer.class);

    private final ListenerEndpoint endpoint;
    private final SdmqClient client;
    private final Listener settings;
    private final ListenerObserver observer;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final List<Thread> threads = new ArrayList<>();
    private ScheduledExecutorService touches;

    SdmqListenerContainer(ListenerEndpoint endpoint, SdmqClient client, Listener settings, ListenerObserver observer) {
        this.endpoint = endpoint;
        this.client = client;
        this.settings = settings;
        this.observer = observer;
    }

    public ListenerEndpoint endpoint() {
        return endpoint;
    }

    /** Starts the threads; a container starts once. */
    public synchronized void start() {
        if (touches != null) {
            throw new IllegalStateException("listener container of " + endpoint.name() + " already started");
        }
        String name = "sdmq-listener-" + endpoint.topic();
        touches = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name + "-touch"));
        ListenerInvoker invoker = new ListenerInvoker(endpoint, new Toucher(client, touches, settings.ttr()),
                observer);
        for (int i = 1; i <= endpoint.concurrency(); i++) {
            Thread thread = daemon(new PollLoop(client, endpoint.topic(), settings, invoker, stopping), name + "-" + i);
            threads.add(thread);
            thread.start();
        }
        log.info("listener {} polls {} on {} thread(s)", endpoint.name(), endpoint.topic(), endpoint.concurrency());
    }

    /** Asks the threads to stop polling, without waiting for them. */
    public void stopPolling() {
        stopping.countDown();
    }

    /** Stops polling; waits up to {@code timeout} for the threads to end their messages; true when they did. */
    public synchronized boolean stop(Duration timeout) {
        stopping.countDown();
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean ended = true;
        for (Thread thread : threads) {
            ended &= join(thread, deadline);
        }
        if (touches != null) {
            touches.shutdownNow();
        }
        if (!ended) {
            log.warn("listener {} did not end its messages within {}; the server hands them out again once their "
                    + "TTR passes", endpoint.name(), timeout);
        }
        return ended;
    }

    /** True while a thread runs. */
    public synchronized boolean isRunning() {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    private static boolean join(Thread thread, long deadline) {
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    private static Thread daemon(Runnable work, String name) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        return thread;
    }
}
