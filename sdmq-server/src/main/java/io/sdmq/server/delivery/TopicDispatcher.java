package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import io.sdmq.core.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One topic's push delivery on this instance: a thread that pops the topic's due messages as the sink has room for
 * them (the topic's pause, rate and in-flight limits apply to these pops as to any), holds each reservation for the
 * sink's timeout and a margin before sending it, and hands every outcome to {@link Acknowledgements}. Every instance
 * runs one per push topic; the pops share the messages out, and a message is never sent twice while its send is under
 * way, since its reservation outlasts the send.
 */
final class TopicDispatcher {
    private static final Logger log = LoggerFactory.getLogger(TopicDispatcher.class);
    /** Added to the sink's timeout in a send's reservation: the time to record its outcome. */
    static final Duration MARGIN = Duration.ofSeconds(5);
    /** How long one pop waits for due messages before the loop looks at its state again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final String topic;
    private final Map<String, Object> delivery;
    private final Sink sink;
    private final Consumer consumer;
    private final Acknowledgements acks;
    private final Clock clock;
    private final int batch;
    private final Semaphore room;
    private final Thread thread;
    private volatile boolean running = true;

    TopicDispatcher(String topic, Map<String, Object> delivery, Sink sink, Consumer consumer, Acknowledgements acks,
                    Clock clock, int batch) {
        this.topic = topic;
        this.delivery = delivery;
        this.sink = sink;
        this.consumer = consumer;
        this.acks = acks;
        this.clock = clock;
        this.batch = batch;
        this.room = new Semaphore(sink.concurrency());
        this.thread = Daemons.thread("sdmq-deliver-" + topic, this::run);
    }

    /** The settings it was opened with: a change of them opens a new dispatcher. */
    Map<String, Object> delivery() {
        return delivery;
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (running) {
            try {
                dispatchOnce();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | ExecutionException e) {
                log.warn("delivery of topic {}: {}; trying again in a second", topic, e.toString());
                pause();
            }
        }
    }

    /** Waits for room, pops up to as many messages as there is room for, holds and sends them. */
    private void dispatchOnce() throws InterruptedException, ExecutionException {
        if (!room.tryAcquire(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
        }
        int free = 1 + room.drainPermits();
        int wanted = Math.min(free, batch);
        room.release(free - wanted);
        List<Message> got;
        try {
            got = consumer.pop(topic, wanted, POLL, Duration.ZERO).get();
        } catch (RuntimeException | ExecutionException | InterruptedException e) {
            room.release(wanted);
            throw e;
        }
        room.release(wanted - got.size());
        if (got.isEmpty()) {
            return;
        }
        List<Long> ids = got.stream().map(Message::id).toList();
        List<Boolean> held;
        try {
            held = consumer.holdUntil(ids, clock.millis() + sink.timeout().plus(MARGIN).toMillis());
        } catch (RuntimeException e) {
            // not held: not sent; each comes back after its own TTR
            room.release(got.size());
            throw e;
        }
        List<Message> sending = new ArrayList<>(got.size());
        for (int i = 0; i < got.size(); i++) {
            if (held.get(i)) {
                sending.add(got.get(i));
            } else {
                room.release();
            }
        }
        for (Message m : sending) {
            sink.send(m).whenComplete((sent, failure) -> {
                room.release();
                acks.add(m, failure == null ? sent : Sent.retry("send failed: " + failure));
            });
        }
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /**
     * Stops popping, waits up to {@code wait} for the sends under way to end (their outcomes go to the
     * acknowledgements), then closes the sink; a send still under way comes back after its reservation.
     */
    void stop(Duration wait) {
        running = false;
        try {
            thread.join(POLL.toMillis() * 3);
            int concurrency = sink.concurrency();
            if (room.tryAcquire(concurrency, wait.toMillis(), TimeUnit.MILLISECONDS)) {
                room.release(concurrency);
            } else {
                log.warn("delivery of topic {} stopped with {} sends under way; they come back after their "
                        + "reservations", topic, concurrency - room.availablePermits());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeSink();
        }
    }

    private void closeSink() {
        try {
            sink.close();
        } catch (RuntimeException e) {
            log.warn("closing the sink of topic {}: {}", topic, e.toString());
        }
    }
}
