package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import io.sdmq.core.Consumer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One topic's push delivery on this instance: a thread that pops the topic's due messages as the sink has room for
 * them (the topic's pause, rate and in-flight limits apply to these pops as to any), each reserved for the sink's
 * timeout and a margin at least, hands each pop's messages to the sink together ({@link Sink#sendAll}), ends a send
 * still under way at the timeout as a failed one, and hands every outcome to {@link Acknowledgements}. Every instance
 * runs one per push topic; the pops share the messages out, and a message is never sent twice while its send is under
 * way, since its reservation outlasts the send.
 */
final class TopicDispatcher {
    private static final Logger log = LoggerFactory.getLogger(TopicDispatcher.class);
    /** Added to the sink's timeout in a send's reservation: the time to record its outcome. */
    static final Duration MARGIN = Duration.ofSeconds(5);
    /** The longest the dispatcher gathers room that frees up before it pops. */
    private static final Duration GATHER = Duration.ofMillis(5);
    /** How long one pop waits for due messages before the loop looks at its state again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final String topic;
    private final Map<String, Object> delivery;
    private final Sink sink;
    private final SendLimits limits;
    /** The outcome of a send that takes longer than the sink's timeout. */
    private final Sent timedOut;
    private final Consumer consumer;
    private final Acknowledgements acks;
    private final int batch;
    private final Semaphore room;
    private final Map<Sent.Outcome, Timer> sends = new EnumMap<>(Sent.Outcome.class);
    private final Thread thread;
    private volatile boolean running = true;

    TopicDispatcher(String topic, Map<String, Object> delivery, Sink sink, Consumer consumer, Acknowledgements acks,
                    int batch, MeterRegistry registry) {
        this.topic = topic;
        this.delivery = delivery;
        this.sink = sink;
        this.limits = SendLimits.of(delivery);
        this.timedOut = Sent.retry(delivery.get("type") + ": no answer within " + limits.timeout().toMillis()
                + " ms");
        this.consumer = consumer;
        this.acks = acks;
        this.batch = batch;
        this.room = new Semaphore(limits.concurrency());
        for (Sent.Outcome outcome : Sent.Outcome.values()) {
            sends.put(outcome, Timer.builder("sdmq.delivery.send").description("sends of push deliveries, by outcome")
                    .tag("topic", topic).tag("type", String.valueOf(delivery.get("type")))
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT)).register(registry));
        }
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

    /** Waits for room, pops up to as much as there is, reserved past their sends, and sends them. */
    private void dispatchOnce() throws InterruptedException, ExecutionException {
        int wanted = gatherRoom();
        if (wanted == 0) {
            return;
        }
        List<Message> popped = pop(wanted);
        if (!popped.isEmpty()) {
            send(popped);
        }
    }

    /**
     * Takes room for the next pop: 0 when none frees up within {@link #POLL}. While the sink is busy, room that frees
     * up is gathered for up to {@link #GATHER} (until half the sink's concurrency is free), so that a pop and a
     * {@link Sink#sendAll} serve many messages, not one each.
     */
    private int gatherRoom() throws InterruptedException {
        if (!room.tryAcquire(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
            return 0;
        }
        int free = 1 + room.drainPermits();
        int enough = Math.min(batch, Math.max(1, limits.concurrency() / 2));
        long gatherUntil = System.nanoTime() + GATHER.toNanos();
        while (free < enough && System.nanoTime() < gatherUntil) {
            if (room.tryAcquire(1, TimeUnit.MILLISECONDS)) {
                free += 1 + room.drainPermits();
            }
        }
        int wanted = Math.min(free, batch);
        room.release(free - wanted);
        return wanted;
    }

    /**
     * Pops up to {@code wanted} messages, each reserved past its send (the sink's timeout and {@link #MARGIN}); gives
     * back the room of those it did not get.
     */
    private List<Message> pop(int wanted) throws InterruptedException, ExecutionException {
        List<Message> got;
        try {
            got = consumer.popReserved(topic, wanted, POLL, limits.timeout().plus(MARGIN)).get();
        } catch (RuntimeException | ExecutionException | InterruptedException e) {
            room.release(wanted);
            throw e;
        }
        room.release(wanted - got.size());
        return got;
    }

    /** Hands the messages to the sink together; each outcome, or a failure at the timeout, frees its room. */
    private void send(List<Message> messages) {
        long start = System.nanoTime();
        List<CompletableFuture<Sent>> outcomes = sendAll(messages);
        long left = Math.max(0, limits.timeout().toNanos() - (System.nanoTime() - start));
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            outcomes.get(i).completeOnTimeout(timedOut, left, TimeUnit.NANOSECONDS).whenComplete((sent, failure) -> {
                room.release();
                Sent outcome = failure == null ? sent : Sent.retry("send failed: " + failure);
                sends.get(outcome.outcome()).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                acks.add(m, outcome);
            });
        }
    }

    /** The sink's sends; a sink that throws, or answers a wrong number of outcomes, failed to send them all. */
    private List<CompletableFuture<Sent>> sendAll(List<Message> messages) {
        try {
            List<CompletableFuture<Sent>> outcomes = sink.sendAll(messages);
            if (outcomes.size() != messages.size()) {
                throw new IllegalStateException("the sink answered " + outcomes.size() + " outcomes for "
                        + messages.size() + " messages, a bug");
            }
            return outcomes;
        } catch (RuntimeException e) {
            return messages.stream().map(m -> CompletableFuture.<Sent>failedFuture(e)).toList();
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
            int concurrency = limits.concurrency();
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
