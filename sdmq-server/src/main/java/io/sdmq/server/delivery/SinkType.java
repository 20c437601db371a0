package io.sdmq.server.delivery;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One kind of push delivery, named by a topic's {@code delivery.type}: checks the settings an admin gives, shows them
 * without their secrets, and opens a {@link Sink} for a topic. A Spring bean; adding a kind (RocketMQ, …) is adding
 * one of these and its sink.
 */
public interface SinkType {

    /** The {@code delivery.type} it serves, e.g. {@code webhook}. */
    String type();

    /**
     * The delivery settings checked, with defaults filled in, as they are to be stored; throws an
     * {@link io.sdmq.common.InvalidRequestException} naming the first bad field ({@code delivery.url}, …) and its
     * rule. {@code delivery} holds {@code type} and the fields as the admin sent them (JSON values: String, Number,
     * Boolean, List, Map). Every type's checked settings hold {@code timeout} (ms) and {@code concurrency}, which the
     * dispatcher enforces ({@link SendLimits}).
     */
    Map<String, Object> check(Map<String, Object> delivery);

    /**
     * The stored settings as {@code GET /topics/{topic}} shows them: secrets replaced by whether they are set; as
     * stored for a type that has none.
     */
    default Map<String, Object> shown(Map<String, Object> delivery) {
        return new LinkedHashMap<>(delivery);
    }

    /** A sink for the topic's messages; {@code delivery} is what {@link #check} answered. */
    Sink open(String topic, Map<String, Object> delivery);
}
