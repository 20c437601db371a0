package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Redis loses its data; MySQL brings every acknowledged message back, and nothing finished. */
class RecoveryIT {
    private final StringRedisTemplate redis = TestServices.redisTemplate();
    private final String prefix = TestServices.freshKeyPrefix();
    private TestDatabase db;
    private RunningServer server;

    @BeforeEach
    void startServer() {
        db = TestServices.freshDatabase();
        // small pages, so the 1 500-message restore below reads and writes four of them
        server = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of("sdmq.recovery.restore-page", "400"));
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void after_redis_loses_everything_a_restore_delivers_every_message_and_none_that_finished() throws Exception {
        String topic = "flush-" + ThreadLocalRandom.current().nextInt(1_000_000);
        try (Deliveries deliveries = new Deliveries()) {
            for (int c = 0; c < 4; c++) {
                deliveries.consume(server, topic);
            }
            Set<String> late = pushAt(topic, 1_500, System.currentTimeMillis() + 3_600_000);
            Set<String> early = push(topic, 500, 0, 1);
            await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.ids().containsAll(early));
            deliveries.awaitFinishes();

            flushPrefix();
            Reply restore = server.post("/reStore?expire=true", "");
            assertThat(restore.status()).as(restore.body()).isEqualTo(200);
            assertThat(restore.data().get("scanned").asLong()).isEqualTo(1_500);
            assertThat(restore.data().get("restored").asLong()).isEqualTo(1_500);
            assertThat(server.get("/reStore").data().get("alreadyPresent").asLong()).isEqualTo(1_500);
            bringForward(late);

            Set<String> all = new HashSet<>(early);
            all.addAll(late);
            await().atMost(Duration.ofSeconds(40)).until(() -> deliveries.ids().containsAll(all));
            deliveries.stopAndCheckFinishes();
            assertThat(deliveries.ids()).isEqualTo(all);
            assertThat(deliveries.counts().values()).allMatch(n -> n == 1);
            assertThat(deliveries.early()).isEmpty();
        }
    }

    @Test
    void restore_without_expire_marks_overdue_messages_expired_and_never_delivers_them() throws Exception {
        String topic = "expire-" + ThreadLocalRandom.current().nextInt(1_000_000);
        Set<String> overdue = push(topic, 20, 300, 301);
        Set<String> future = push(topic, 20, 60_000, 60_001);
        Thread.sleep(600);
        flushPrefix();

        Reply restore = server.get("/reStore?expire=false");

        assertThat(restore.data().get("scanned").asLong()).isEqualTo(40);
        assertThat(restore.data().get("expired").asLong()).isEqualTo(20);
        assertThat(restore.data().get("restored").asLong()).isEqualTo(20);
        assertThat(statuses(overdue)).containsOnly("EXPIRED");
        assertThat(statuses(future)).doesNotContain("EXPIRED");
        assertThat(server.get("/get/" + topic + "?timeout=1500&count=50").data()).isEmpty();
        assertThat(server.post("/reStoreJob?jobId=" + overdue.iterator().next(), "").status()).isEqualTo(409);
    }

    @Test
    void restore_job_puts_back_one_message() throws Exception {
        String topic = "job-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String id = push(topic, 1, 500, 501).iterator().next();
        flushPrefix();

        Reply restored = server.get("/reStoreJob?jobId=" + id);

        assertThat(restored.data().get("outcome").asString()).isEqualTo("RESTORED");
        assertThat(server.get("/reStoreJob?jobId=" + id).data().get("outcome").asString())
                .isEqualTo("ALREADY_PRESENT");
        assertThat(server.get("/reStoreJob?jobId=42").status()).isEqualTo(404);
        assertThat(server.get("/reStoreJob?jobId=x").status()).isEqualTo(400);
        assertThat(server.get("/get/" + topic + "?timeout=5000").data().get(0).get("id").asString()).isEqualTo(id);
    }

    /** Moves restored messages to due within 2 s: they were restored from MySQL, not re-pushed. */
    private void bringForward(Set<String> ids) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> replies = new ArrayList<>();
        for (String id : ids) {
            long delay = ThreadLocalRandom.current().nextLong(0, 2_000);
            replies.add(pool.submit(() -> server.postForm("/reschedule?jobId=" + id + "&delay=" + delay).status()));
        }
        for (Future<Integer> reply : replies) {
            assertThat(reply.get(60, TimeUnit.SECONDS)).isEqualTo(200);
        }
        pool.shutdown();
    }

    private Set<String> push(String topic, int count, long minDelay, long maxDelay) throws Exception {
        return pushAll(topic, count, () -> "\"delay\":" + ThreadLocalRandom.current().nextLong(minDelay, maxDelay));
    }

    private Set<String> pushAt(String topic, int count, long deliverAt) throws Exception {
        return pushAll(topic, count, () -> "\"deliverAt\":" + deliverAt);
    }

    private Set<String> pushAll(String topic, int count, Supplier<String> when) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<String>> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String due = when.get();
            ids.add(pool.submit(() -> {
                Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"b\"," + due + "}");
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                return reply.data().asString();
            }));
        }
        Set<String> pushed = new HashSet<>();
        for (Future<String> id : ids) {
            pushed.add(id.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        return pushed;
    }

    /** Deletes every key of this server's prefix: Redis as after FLUSHALL or a restart without persistence. */
    private void flushPrefix() {
        List<String> keys = new ArrayList<>();
        try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(prefix + ":*").count(1_000).build())) {
            cursor.forEachRemaining(keys::add);
        }
        redis.delete(keys);
    }

    private List<String> statuses(Set<String> ids) throws Exception {
        List<String> statuses = new ArrayList<>();
        try (Connection c = db.connection();
             PreparedStatement s = c.prepareStatement("SELECT status FROM sdmq_message WHERE id = ?")) {
            for (String id : ids) {
                s.setLong(1, Long.parseLong(id));
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    statuses.add(rs.getString(1));
                }
            }
        }
        return statuses;
    }
}
