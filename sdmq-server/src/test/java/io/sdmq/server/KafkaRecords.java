package io.sdmq.server;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a Kafka topic holds, read from its beginning by a test consumer on a thread of its own (no consumer group),
 * by {@code sdmq-id} header; each record is stamped with the consumer's clock when it arrived. The consumer rides out
 * a broker outage and goes on reading after it.
 */
final class KafkaRecords implements AutoCloseable {
    /** One record as read: its key, value and headers as text, its timestamp and when it arrived here. */
    record Got(String key, String body, Map<String, String> headers, long timestamp, long arrivedAt) {
        long dueTime() {
            return Long.parseLong(headers.get("sdmq-due-time"));
        }
    }

    private final Map<String, List<Got>> byId = new ConcurrentHashMap<>();
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    private KafkaRecords(String bootstrap, String topic) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500),
                new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "kafka-records-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts reading {@code topic} from its beginning. */
    static KafkaRecords read(TestKafka kafka, String topic) {
        return new KafkaRecords(kafka.bootstrap(), topic);
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    long now = System.currentTimeMillis();
                    Map<String, String> headers = new HashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
                    }
                    Got got = new Got(r.key(), new String(r.value(), StandardCharsets.UTF_8), Map.copyOf(headers),
                            r.timestamp(), now);
                    byId.computeIfAbsent(headers.get("sdmq-id"), id -> new CopyOnWriteArrayList<>()).add(got);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** The sdmq ids read so far. */
    Set<String> ids() {
        return byId.keySet();
    }

    /** Every record read so far, by sdmq id. */
    Map<String, List<Got>> byId() {
        return byId;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(10_000);
    }
}
