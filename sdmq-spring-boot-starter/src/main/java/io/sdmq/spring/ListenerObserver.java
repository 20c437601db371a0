package io.sdmq.spring;

import java.time.Duration;

/**
 * What the listener containers report about each message, for meters: {@link MicrometerListenerObserver} when the
 * application has a {@code MeterRegistry}, else {@link #NONE}. Called on the listener threads; must not block.
 */
public interface ListenerObserver {

    /** Reports nothing. */
    ListenerObserver NONE = new ListenerObserver() {
    };

    /** A message of {@code topic} was received {@code lateness} after it was due (never negative). */
    default void received(String topic, Duration lateness) {
    }

    /** The listener method returned after {@code took}: the message is finished. */
    default void handled(String topic, Duration took) {
    }

    /** The listener method threw after {@code took}: the message is nacked, or DEAD when it cannot be retried. */
    default void failed(String topic, Duration took) {
    }
}
