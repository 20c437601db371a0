package io.sdmq.server;

import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis dies under load (after some pushes were acknowledged), stays down for 6 s and comes back empty, and the
 * producers go on until some pushes were acknowledged after it is back. Every push answered 200 is delivered, none
 * before its due time: those answered while Redis was down (WAIT_PUT in MySQL until the reconciler schedules them)
 * and those Redis held when it died (put back from MySQL). A finish that failed in the outage means a second
 * delivery, which is allowed. A killed Redis refuses connections, so pushes in the outage fail their Redis step at
 * once and are answered 200 from MySQL alone.
 */
class RedisKilledIT {
    /** Producers, each pausing between pushes: about 400 pushes/s in all. */
    private static final int PRODUCERS = 8;
    private static final long PAUSE_MS = 20;
    private static final int ACKED_BEFORE = 600;
    private static final int ACKED_AFTER = 500;

    @Test
    void every_acknowledged_push_is_delivered_after_redis_is_killed_and_restarted_empty() throws Exception {
        TestDatabase db = TestServices.freshDatabase();
        DataSource dataSource = db.dataSource();
        String topic = "redis-killed-" + ThreadLocalRandom.current().nextInt(1_000_000);
        try (RedisProcess redis = RedisProcess.start();
             RunningServer server = RunningServer.start(db, redis.url(), TestServices.freshKeyPrefix(), Map.of(
                     "sdmq.recovery.reconcile-interval", "1s",
                     "sdmq.recovery.wait-put-age", "1s",
                     "sdmq.recovery.grace", "2s"));
             Deliveries deliveries = Deliveries.tolerant()) {
            for (int c = 0; c < 4; c++) {
                deliveries.consume(server, topic);
            }
            Set<String> acked;
            Producers producers = Producers.start(PRODUCERS, server::http, () -> message(topic), Integer.MAX_VALUE,
                    PAUSE_MS);
            try (producers) {
                await().atMost(Duration.ofSeconds(60)).until(() -> producers.ackedCount() >= ACKED_BEFORE);
                int ackedBefore = producers.ackedCount();
                redis.stop();
                Thread.sleep(6_000);
                int ackedDuring = producers.ackedCount() - ackedBefore;
                redis.startAgain();
                await("pushes acknowledged after Redis is back").atMost(Duration.ofSeconds(60))
                        .until(() -> producers.ackedCount() >= ackedBefore + ackedDuring + ACKED_AFTER);
                acked = producers.stop();
                System.out.printf("acknowledged pushes: %d before Redis stopped, %d while it was down, %d in all%n",
                        ackedBefore, ackedDuring, acked.size());
                assertThat(ackedDuring).as("pushes acknowledged while Redis was down").isPositive();
            }

            deliveries.awaitDelivered(acked, Duration.ofSeconds(90), dataSource);
            deliveries.stop();

            int fromWaitPut = MessageHistory.withLogRow(dataSource, "from_status = 'WAIT_PUT' AND note IS NOT NULL");
            System.out.printf("Redis killed: pushes tried %d, acked %d, refused %d, failed %d; delivered %d ids, "
                            + "duplicates %d, finishes failed %d, polls failed %d; WAIT_PUT scheduled by recovery %d, "
                            + "put back from MySQL %d%n",
                    producers.sent(), acked.size(), producers.refused(), producers.failed(), deliveries.ids().size(),
                    deliveries.duplicates(), deliveries.failedFinishes(), deliveries.failedPolls(), fromWaitPut,
                    MessageHistory.withLogRow(dataSource,
                            "from_status <> 'WAIT_PUT' AND note = 'restored from MySQL'"));
            assertThat(fromWaitPut).as("pushes answered while Redis was down, scheduled by recovery").isPositive();
            assertThat(deliveries.early()).as("delivered before their due time").isEmpty();
        }
    }

    private static String message(String topic) {
        long delay = ThreadLocalRandom.current().nextLong(0, 3_001);
        return "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":" + delay + "}";
    }
}
