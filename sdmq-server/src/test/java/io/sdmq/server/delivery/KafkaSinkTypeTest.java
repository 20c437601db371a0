package io.sdmq.server.delivery;

import io.sdmq.common.InvalidRequestException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.kafka.core.KafkaProducerException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kafka delivery's settings, the producer properties it forces, and how a failed produce is judged. */
class KafkaSinkTypeTest {
    private final KafkaSinkType type = new KafkaSinkType(null);

    @Test
    void defaults_are_filled_in_and_only_known_fields_pass() {
        assertThat(type.check(Map.of("type", "kafka", "topic", "orders.v1_x-y")))
                .containsEntry("topic", "orders.v1_x-y").containsEntry("timeout", 30_000)
                .containsEntry("concurrency", 1_000);
        assertThatThrownBy(() -> type.check(Map.of("type", "kafka", "topic", "t", "acks", "1")))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("delivery.acks");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a b", "a/b", "é"})
    void a_topic_outside_kafkas_name_rule_is_refused(String topic) {
        assertThatThrownBy(() -> type.check(Map.of("type", "kafka", "topic", topic)))
                .isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("delivery.topic");
    }

    @Test
    void a_topic_of_249_characters_passes_and_one_of_250_does_not() {
        assertThat(type.check(Map.of("type", "kafka", "topic", "t".repeat(249)))).containsKey("topic");
        assertThatThrownBy(() -> type.check(Map.of("type", "kafka", "topic", "t".repeat(250))))
                .hasMessageStartingWith("delivery.topic");
    }

    @ParameterizedTest
    @ValueSource(ints = {1_000, 1_001, 30_000, 120_000})
    void forced_properties_make_a_producer_kafka_accepts_whatever_boot_said(int timeoutMs) {
        Map<String, Object> boot = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
                ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.LINGER_MS_CONFIG, "5000", ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 90_000,
                ProducerConfig.RETRIES_CONFIG, 0, ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx"));
        Map<String, Object> p = KafkaSinkType.producerProperties(boot, "orders", timeoutMs);

        assertThat(p).containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .doesNotContainKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)
                .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "sdmq-orders");
        int block = (Integer) p.get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
        int delivery = (Integer) p.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
        int linger = (Integer) p.get(ProducerConfig.LINGER_MS_CONFIG);
        int request = (Integer) p.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
        assertThat(KafkaSink.blockLimitMs(timeoutMs) + block + delivery).isLessThanOrEqualTo(timeoutMs);
        assertThat(linger + request).isLessThanOrEqualTo(delivery);
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer()).close();
    }

    @Test
    void a_failure_no_retry_can_help_is_dead_and_any_other_a_retry() {
        for (Throwable hopeless : Set.of(new RecordTooLargeException("big"), new InvalidTopicException("bad"),
                new TopicAuthorizationException("no"))) {
            assertThat(KafkaSink.failed(wrapped(hopeless)).outcome()).as(hopeless.toString())
                    .isEqualTo(Sent.Outcome.DEAD);
        }
        for (Throwable passing : Set.of(new TimeoutException("expired"), new NotEnoughReplicasException("isr"),
                new IllegalStateException("closed"))) {
            assertThat(KafkaSink.failed(wrapped(passing)).outcome()).as(passing.toString())
                    .isEqualTo(Sent.Outcome.RETRY);
        }
        assertThat(KafkaSink.failed(wrapped(new TimeoutException("expired"))).note()).isEqualTo("Kafka: expired");
    }

    private static Throwable wrapped(Throwable cause) {
        return new CompletionException(new KafkaProducerException(null, "send failed", cause));
    }
}
