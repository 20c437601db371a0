package io.sdmq.spring.app;

import io.sdmq.client.Delivered;
import io.sdmq.spring.NonRetryableException;
import io.sdmq.spring.SdmqListener;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Listeners whose behaviour each message's body chooses: {@code sleep:<ms>} takes that long, {@code fail-once}
 * throws on its first attempt, {@code non-retryable} throws a {@link NonRetryableException},
 * {@code illegal-argument} throws the exception type the annotation names; any other body is handled at once.
 * Each records what it received.
 */
@Component
public class RecordingListener {
    public final List<Delivered> received = new CopyOnWriteArrayList<>();
    public final List<String> texts = new CopyOnWriteArrayList<>();

    @SdmqListener(topic = "${test.topic}", concurrency = "${test.concurrency:2}",
            nonRetryable = IllegalArgumentException.class)
    public void on(Delivered message) throws InterruptedException {
        received.add(message);
        String body = message.body();
        if (body.startsWith("sleep:")) {
            Thread.sleep(Long.parseLong(body.substring("sleep:".length())));
        } else if (body.equals("fail-once") && message.attempts() == 1) {
            throw new IllegalStateException("the first attempt fails");
        } else if (body.equals("non-retryable")) {
            throw new NonRetryableException("no retry can help");
        } else if (body.equals("illegal-argument")) {
            throw new IllegalArgumentException("named in nonRetryable");
        }
    }

    @SdmqListener(topic = "${test.topic}-text")
    public void onText(String body) {
        texts.add(body);
    }

    /** The deliveries of message {@code id}. */
    public List<Delivered> deliveries(String id) {
        return received.stream().filter(m -> m.id().equals(id)).toList();
    }
}
