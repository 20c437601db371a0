package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code kafka} delivery: a topic's due messages become records of one Kafka topic ({@code topic}), produced on
 * Spring Boot's connection ({@code spring.kafka.*}: bootstrap servers, security, producer properties) with
 * {@code acks=all} and idempotence forced, and the producer's timeouts fitted inside the sink's {@code timeout}.
 */
@Component
public class KafkaSinkType implements SinkType {
    private static final Set<String> FIELDS = Set.of("topic", "timeout", "concurrency");
    /** Kafka's own rule for a topic name; {@code .} and {@code ..} are refused besides. */
    private static final Pattern KAFKA_TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private final ObjectProvider<ProducerFactory<?, ?>> boot;

    /** {@code boot} is Spring Boot's producer factory: its configuration carries the connection to use. */
    public KafkaSinkType(ObjectProvider<ProducerFactory<?, ?>> boot) {
        this.boot = boot;
    }

    @Override
    public String type() {
        return "kafka";
    }

    @Override
    public Map<String, Object> check(Map<String, Object> delivery) {
        DeliveryFields fields = new DeliveryFields(delivery, FIELDS);
        String topic = fields.string("topic", true, 249);
        if (!KAFKA_TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new InvalidRequestException("delivery.topic", "must be 1..249 of a-z, A-Z, 0-9, '.', '_' and '-',"
                    + " and not '.' or '..'");
        }
        fields.integer("timeout", 30_000, 1_000, 120_000);
        fields.integer("concurrency", 1_000, 1, 10_000);
        return fields.checked();
    }

    @Override
    public Sink open(String topic, Map<String, Object> delivery) {
        ProducerFactory<?, ?> factory = boot.getIfAvailable();
        if (factory == null) {
            throw new IllegalStateException("no Kafka producer factory: Spring Boot's Kafka auto-configuration is off");
        }
        int timeoutMs = ((Number) delivery.get("timeout")).intValue();
        return new KafkaSink(topic, (String) delivery.get("topic"), timeoutMs,
                producerProperties(factory.getConfigurationProperties(), topic, timeoutMs));
    }

    /**
     * Boot's producer properties with what a sink needs forced: every in-sync replica acknowledges, idempotence (no
     * duplicate from the producer's own retries), no transactions, and timeouts within {@code timeoutMs}: a quarter
     * for a send's wait for metadata or buffer room, half for the record's delivery after it, which must be at least
     * linger plus one request's timeout.
     */
    static Map<String, Object> producerProperties(Map<String, Object> boot, String topic, int timeoutMs) {
        Map<String, Object> p = new HashMap<>(boot);
        int deliveryMs = timeoutMs / 2;
        int lingerMs = Math.min(number(p, ProducerConfig.LINGER_MS_CONFIG, 5), deliveryMs / 10);
        int requestMs = Math.min(number(p, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000), deliveryMs - lingerMs);
        int inFlight = Math.min(number(p, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5), 5);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, Math.max(inFlight, 1));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, KafkaSink.blockLimitMs(timeoutMs));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, deliveryMs);
        p.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestMs);
        p.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        Object clientId = p.get(ProducerConfig.CLIENT_ID_CONFIG);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, (clientId == null ? "sdmq" : clientId) + "-" + topic);
        return p;
    }

    /** A numeric producer property as Boot or an admin gave it (a number or its text), else {@code fallback}. */
    private static int number(Map<String, Object> properties, String name, int fallback) {
        Object value = properties.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return (int) Math.min(Integer.MAX_VALUE, Long.parseLong(value.toString().trim()));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
