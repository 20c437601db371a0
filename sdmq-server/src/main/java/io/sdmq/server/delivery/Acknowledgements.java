package io.sdmq.server.delivery;

import io.sdmq.common.Daemons;
import io.sdmq.common.Message;
import io.sdmq.common.SdmqException;
import io.sdmq.core.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Records what the sinks' sends came to, on one thread for every topic: the delivered ones are finished together
 * (one group commit for all that arrived meanwhile), each failed one is given back with its note: due again after
 * its topic's backoff, or DEAD. A finish that cannot be recorded (Redis or MySQL down) is tried again for a while;
 * after that the message comes back after its reservation, a duplicate after a failure.
 */
final class Acknowledgements {
    private static final Logger log = LoggerFactory.getLogger(Acknowledgements.class);
    private static final int MAX_BATCH = 1_000;
    private static final int FINISH_TRIES = 5;

    private final Consumer consumer;
    private final BlockingQueue<Done> done = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    Acknowledgements(Consumer consumer) {
        this.consumer = consumer;
        this.thread = Daemons.thread("sdmq-deliver-ack", this::run);
    }

    void start() {
        thread.start();
    }

    /** A send's outcome, to be recorded. */
    void add(Message message, Sent sent) {
        done.add(new Done(message, sent));
    }

    /** Records what is queued, then stops. */
    void stop() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<Done> batch = new ArrayList<>();
        while (running || !done.isEmpty()) {
            try {
                Done first = done.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                done.drainTo(batch, MAX_BATCH - 1);
                record(batch);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("recording {} sends failed: {}", batch.size(), e.toString());
            } finally {
                batch.clear();
            }
        }
    }

    private void record(List<Done> batch) throws InterruptedException {
        List<Long> delivered = new ArrayList<>(batch.size());
        for (Done d : batch) {
            if (d.sent().outcome() == Sent.Outcome.DELIVERED) {
                delivered.add(d.message().id());
            } else {
                giveBack(d);
            }
        }
        if (!delivered.isEmpty()) {
            finish(delivered);
        }
    }

    private void finish(List<Long> ids) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                List<Optional<SdmqException>> results = consumer.finishDelivered(ids);
                for (int i = 0; i < ids.size(); i++) {
                    int at = i;
                    results.get(i).ifPresent(e -> log.warn("message {} was delivered but could not be finished ({});"
                            + " it may be delivered again", ids.get(at), e.getMessage()));
                }
                return;
            } catch (RuntimeException e) {
                if (attempt == FINISH_TRIES) {
                    log.warn("could not finish {} delivered messages ({}); they come back after their reservations",
                            ids.size(), e.toString());
                    return;
                }
                Thread.sleep(1_000L * attempt);
            }
        }
    }

    private void giveBack(Done d) {
        Sent sent = d.sent();
        try {
            consumer.nack(d.message().id(), sent.delayMs(), sent.outcome() == Sent.Outcome.DEAD, sent.note());
        } catch (RuntimeException e) {
            log.warn("could not give message {} back after a failed send ({}); it comes back after its reservation",
                    d.message().id(), e.toString());
        }
    }

    private record Done(Message message, Sent sent) {
    }
}
