package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;

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
            try (Deliveries deliveries = new Deliveries()) {
                for (int c = 0; c < 8; c++) {
                    deliveries.consume(c % 2 == 0 ? a : b, topic);
                }
                long start = System.nanoTime();
                Set<String> pushed = push(pool, List.of(a, b), topic);
                System.out.printf("pushed %d messages in %d ms%n", MESSAGES, (System.nanoTime() - start) / 1_000_000);
                await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.ids().containsAll(pushed));
                deliveries.stopAndCheckFinishes();
                pool.shutdown();
                deliveries.printLateness();

                assertThat(deliveries.counts()).hasSize(MESSAGES);
                assertThat(deliveries.counts().entrySet()).filteredOn(e -> e.getValue() > 1).isEmpty();
                assertThat(deliveries.early()).isEmpty();
            }
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
                Reply reply = server.post("/push",
                        "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":" + delay + "}");
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
}
