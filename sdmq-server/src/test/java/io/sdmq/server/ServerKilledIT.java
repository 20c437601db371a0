package io.sdmq.server;

import io.sdmq.server.Deliveries.Delivery;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * A server dies by SIGKILL in the middle of pushes and finishes (after 250 acknowledged pushes); a new one on the
 * same Redis and MySQL takes over and takes 250 more. Every push answered 200 is delivered (a reservation lost in
 * the kill comes back after its short TTR), and no message whose finish was answered 200 is delivered again
 * afterwards. Requests in flight at the kill may fail: those pushes and finishes were never acknowledged.
 * <p>
 * "Afterwards" means from a poll sent after the finish's 200 arrived. A finish names the message, not the delivery:
 * a finish held up past the TTR acknowledges the next delivery's reservation, whose reply may still be on its way,
 * so a reply that merely arrives after the 200 proves nothing. The log in MySQL must agree: no message moves back
 * into the schedule after it was FINISHED.
 */
class ServerKilledIT {
    private static final int PUSHES_PER_SERVER = 250;
    /** A bound on push attempts, counting those that fail while no server answers. */
    private static final int MAX_PUSHES = 20_000;
    /** Quick recovery; and a cold window of 1 s, so the messages due in more than that wait cold, through the kill. */
    private static final Map<String, String> RECOVERY = Map.of(
            "sdmq.recovery.reconcile-interval", "1s",
            "sdmq.recovery.grace", "2s",
            "sdmq.scheduler.cold-after", "1s");

    @Test
    void every_acknowledged_push_is_delivered_after_a_kill_9_and_nothing_finished_comes_back() throws Exception {
        TestDatabase db = TestServices.freshDatabase();
        DataSource dataSource = db.dataSource();
        String prefix = TestServices.freshKeyPrefix();
        String topic = "server-killed-" + ThreadLocalRandom.current().nextInt(1_000_000);
        ServerProcess a = ServerProcess.start(db, TestServices.redisUrl(), prefix, RECOVERY);
        ServerProcess b = null;
        AtomicReference<HttpApi> current = new AtomicReference<>(a.http());
        try (Deliveries deliveries = Deliveries.tolerant()) {
            for (int c = 0; c < 4; c++) {
                deliveries.consume(current::get, topic);
            }
            Set<String> acked;
            Producers producers = Producers.start(16, current::get, () -> message(topic), MAX_PUSHES, 5);
            try (producers) {
                await().atMost(Duration.ofSeconds(60)).until(() -> producers.ackedCount() >= PUSHES_PER_SERVER);
                int ackedOnA = producers.ackedCount();
                System.out.printf("kill -9 of server A after %d acknowledged pushes, %d finishes%n", ackedOnA,
                        deliveries.finishedAt().size());
                assertThat(a.kill9()).isEqualTo(137);
                b = ServerProcess.start(db, TestServices.redisUrl(), prefix, RECOVERY);
                current.set(b.http());
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> producers.ackedCount() >= ackedOnA + PUSHES_PER_SERVER);
                acked = producers.stop();
            }

            deliveries.awaitDelivered(acked, Duration.ofSeconds(90), dataSource);
            // longer than a TTR plus a reconciler pass past its grace: time for a finished message to come back
            Thread.sleep(5_000);
            deliveries.stop();

            Map<String, Long> finishedAt = deliveries.finishedAt();
            List<Delivery> received = deliveries.received();
            List<Delivery> afterFinish = received.stream()
                    .filter(d -> finishedAt.containsKey(d.id()) && d.at() > finishedAt.get(d.id())).toList();
            List<Delivery> resurrected = afterFinish.stream()
                    .filter(d -> d.polledAt() > finishedAt.get(d.id())).toList();
            System.out.printf("server killed: pushes acked %d, refused %d, failed %d; delivered %d ids in %d "
                            + "deliveries, duplicates %d; finishes acked %d, failed %d; polls failed %d; replies "
                            + "that arrived after the finish of their message was acked, from polls sent before: %d%n",
                    acked.size(), producers.refused(), producers.failed(), deliveries.ids().size(), received.size(),
                    deliveries.duplicates(), finishedAt.size(), deliveries.failedFinishes(), deliveries.failedPolls(),
                    afterFinish.size() - resurrected.size());
            if (!resurrected.isEmpty()) {
                fail(resurrected.size() + " deliveries, from polls sent after the finish was answered 200:\n"
                        + describe(resurrected, finishedAt, received)
                        + MessageHistory.of(dataSource, resurrected.stream().map(Delivery::id).distinct().limit(20)
                        .toList()));
            }
            List<String> backAfterFinished = MessageHistory.scheduledAfterFinished(dataSource);
            if (!backAfterFinished.isEmpty()) {
                fail(backAfterFinished.size() + " messages were scheduled again after they were FINISHED:\n"
                        + MessageHistory.of(dataSource, backAfterFinished.subList(0, Math.min(20,
                        backAfterFinished.size()))));
            }
        } finally {
            a.close();
            if (b != null) {
                b.close();
            }
        }
    }

    private static String describe(List<Delivery> resurrected, Map<String, Long> finishedAt, List<Delivery> all) {
        StringBuilder out = new StringBuilder();
        resurrected.stream().map(Delivery::id).distinct().limit(20).forEach(id -> {
            out.append("message ").append(id).append(": finish answered 200 at ")
                    .append(Instant.ofEpochMilli(finishedAt.get(id))).append('\n');
            all.stream().filter(d -> d.id().equals(id)).forEach(d -> out.append("  attempt ").append(d.attempts())
                    .append(" polled at ").append(Instant.ofEpochMilli(d.polledAt())).append(", received at ")
                    .append(Instant.ofEpochMilli(d.at())).append('\n'));
        });
        return out.toString();
    }

    private static String message(String topic) {
        long delay = ThreadLocalRandom.current().nextLong(0, 2_001);
        return "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":" + delay + ",\"ttr\":2000}";
    }
}
