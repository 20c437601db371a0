package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The concurrency proof: two servers on one Redis and one MySQL, producers and consumers on both. Every message
 * is delivered, none twice (no TTR expires here), none early.
 */
class TwoInstancesIT {
    private static final int MESSAGES = 10_000;

    @Test
    void ten_thousand_messages_through_two_servers_are_each_delivered_once_and_never_early() throws Exception {
        TestDatabase db = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        String topic = "two-" + ThreadLocalRandom.current().nextInt(1_000_000);
        try (RunningServer a = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of());
             RunningServer b = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of())) {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            long start = System.nanoTime();
            Set<String> pushed = push(pool, List.of(a, b), topic);
            System.out.printf("pushed %d messages in %d ms%n", MESSAGES, (System.nanoTime() - start) / 1_000_000);

            Map<String, Integer> deliveries = new ConcurrentHashMap<>();
            List<String> early = new ArrayList<>();
            AtomicBoolean done = new AtomicBoolean();
            List<Future<?>> consumers = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                RunningServer server = c % 2 == 0 ? a : b;
                consumers.add(pool.submit(() -> consume(server, topic, deliveries, early, done)));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.keySet().containsAll(pushed));
            System.out.printf("all delivered and finished %d ms after the first push%n",
                    (System.nanoTime() - start) / 1_000_000);
            done.set(true);
            for (Future<?> consumer : consumers) {
                consumer.get(10, TimeUnit.SECONDS);
            }
            pool.shutdown();

            assertThat(deliveries).hasSize(MESSAGES);
            assertThat(deliveries.entrySet()).filteredOn(e -> e.getValue() > 1).isEmpty();
            assertThat(early).isEmpty();
        }
    }

    private static Set<String> push(ExecutorService pool, List<RunningServer> servers, String topic)
            throws Exception {
        Set<String> pushed = ConcurrentHashMap.newKeySet();
        List<Future<?>> pushes = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            RunningServer server = servers.get(i % 2);
            long delay = ThreadLocalRandom.current().nextLong(0, 3_000);
            pushes.add(pool.submit(() -> {
                Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":" + delay + "}");
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                pushed.add(reply.data().asString());
            }));
        }
        for (Future<?> push : pushes) {
            push.get(120, TimeUnit.SECONDS);
        }
        assertThat(pushed).hasSize(MESSAGES);
        return pushed;
    }

    private static void consume(RunningServer server, String topic, Map<String, Integer> deliveries,
                                List<String> early, AtomicBoolean done) {
        while (!done.get()) {
            Reply reply = server.get("/get/" + topic + "?timeout=500&count=50");
            long now = System.currentTimeMillis();
            for (JsonNode m : reply.data()) {
                String id = m.get("id").asString();
                if (m.get("dueTime").asLong() > now) {
                    synchronized (early) {
                        early.add(id);
                    }
                }
                deliveries.merge(id, 1, Integer::sum);
                assertThat(server.postForm("/finish?jobId=" + id).status()).isEqualTo(200);
            }
        }
    }
}
