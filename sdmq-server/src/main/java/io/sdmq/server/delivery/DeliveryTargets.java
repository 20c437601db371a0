package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The kinds of push delivery this server has, by {@code delivery.type}; {@code pull} is the absence of one. */
@Component
public class DeliveryTargets {
    public static final String PULL = "pull";

    private final Map<String, SinkType> types = new TreeMap<>();

    public DeliveryTargets(List<SinkType> types) {
        types.forEach(t -> this.types.put(t.type(), t));
    }

    /**
     * The delivery settings to store, checked by their type, or null for {@code pull} (consumers poll) or none;
     * throws an {@link InvalidRequestException} naming the bad field.
     */
    public Map<String, Object> check(Map<String, Object> delivery) {
        if (delivery == null) {
            return null;
        }
        String type = delivery.get("type") instanceof String s ? s : null;
        if (PULL.equals(type)) {
            if (delivery.size() > 1) {
                throw new InvalidRequestException("delivery", "of type pull takes no other field");
            }
            return null;
        }
        return type(type).check(delivery);
    }

    /** Stored delivery settings as they may be shown: secrets replaced by whether they are set; null stays null. */
    public Map<String, Object> shown(Map<String, Object> delivery) {
        return delivery == null ? null : type(String.valueOf(delivery.get("type"))).shown(delivery);
    }

    /** A sink for a topic's stored delivery settings. */
    public Sink open(String topic, Map<String, Object> delivery) {
        return type(String.valueOf(delivery.get("type"))).open(topic, delivery);
    }

    private SinkType type(String name) {
        SinkType type = name == null ? null : types.get(name);
        if (type == null) {
            throw new InvalidRequestException("delivery.type", "must be one of " + PULL + ", "
                    + String.join(", ", types.keySet()));
        }
        return type;
    }
}
