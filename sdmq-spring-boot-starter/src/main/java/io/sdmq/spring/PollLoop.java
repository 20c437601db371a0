package io.sdmq.spring;

import io.sdmq.client.Delivered;
import io.sdmq.client.FinishOutcome;
import io.sdmq.client.FinishedAndDelivered;
import io.sdmq.client.SdmqClient;
import io.sdmq.client.SdmqClientException;
import io.sdmq.spring.SdmqClientProperties.Listener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One listener thread: polls its topic in batches, one {@code POST /get/{topic}} per batch that also finishes the
 * previous batch's handled messages; hands each message to the invoker and finishes, nacks or buries it. Once
 * {@code stopping} is counted down it polls no more: messages not yet handled are given back (nacked without delay),
 * and the handled ones are finished with one batch {@code /finish}.
 */
final class PollLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(PollLoop.class);

    private final SdmqClient client;
    private final String topic;
    private final Listener settings;
    private final ListenerInvoker invoker;
    private final CountDownLatch stopping;
    private List<String> handled = new ArrayList<>();

    PollLoop(SdmqClient client, String topic, Listener settings, ListenerInvoker invoker, CountDownLatch stopping) {
        this.client = client;
        this.topic = topic;
        this.settings = settings;
        this.invoker = invoker;
        this.stopping = stopping;
    }

    @Override
    public void run() {
        while (!stopped()) {
            try {
                List<Delivered> batch = pollAndFinish();
                batch.forEach(this::handle);
            } catch (RuntimeException e) {
                log.warn("polling {} failed: {}; will poll again in {}", topic, e.getMessage(),
                        settings.errorBackoff());
                pause(settings.errorBackoff());
            }
        }
        finishHandled();
    }

    private List<Delivered> pollAndFinish() {
        List<String> finishing = handled;
        FinishedAndDelivered reply = client.finishAndGet(topic, finishing, settings.count(), settings.pollTimeout(),
                settings.linger());
        handled = new ArrayList<>();
        report(reply.finished());
        return reply.messages();
    }

    private void handle(Delivered message) {
        if (stopped()) {
            giveBack(message);
            return;
        }
        try {
            switch (invoker.handle(message)) {
                case FINISH -> handled.add(message.id());
                case RETRY -> client.nack(message.id(), null);
                case DEAD -> client.nackAsDead(message.id());
            }
        } catch (SdmqClientException e) {
            log.warn("could not nack message {} of {}: {}; the server hands it out again once its TTR passes",
                    message.id(), topic, e.getMessage());
        }
    }

    private void giveBack(Delivered message) {
        try {
            client.nack(message.id(), Duration.ZERO);
        } catch (SdmqClientException e) {
            log.warn("could not give back message {} of {} at stop: {}; the server hands it out again once its TTR "
                    + "passes", message.id(), topic, e.getMessage());
        }
    }

    private void finishHandled() {
        if (handled.isEmpty()) {
            return;
        }
        try {
            report(client.finish(handled));
        } catch (SdmqClientException e) {
            log.warn("could not finish {} handled message(s) of {} at stop: {}; the server hands them out again once "
                    + "their TTR passes", handled.size(), topic, e.getMessage());
        }
        handled = new ArrayList<>();
    }

    private void report(List<FinishOutcome> outcomes) {
        for (FinishOutcome outcome : outcomes) {
            if (!outcome.finished()) {
                log.warn("message {} of {} was handled but not finished: {} {}", outcome.id(), topic, outcome.code(),
                        outcome.message());
            }
        }
    }

    private boolean stopped() {
        return stopping.getCount() == 0;
    }

    private void pause(Duration wait) {
        try {
            stopping.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping.countDown();
        }
    }
}
