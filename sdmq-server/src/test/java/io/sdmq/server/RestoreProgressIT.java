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
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A restore's progress through Redis: started without waiting on instance A ({@code POST /reStore?wait=false},
 * 202), followed to its end through {@code GET /reStore/progress} on instance B, with the counts the restore made.
 */
class RestoreProgressIT {
    private static final long MESSAGES = 1_200;

    private final StringRedisTemplate redis = TestServices.redisTemplate();
    private final String prefix = TestServices.freshKeyPrefix();
    private RunningServer a;
    private RunningServer b;

    @BeforeEach
    void startServers() {
        TestDatabase db = TestServices.freshDatabase();
        // pages of 100 rows: the restore below publishes its progress twelve times
        a = RunningServer.start(db, TestServices.redisUrl(), prefix, properties("inst-a"));
        b = RunningServer.start(db, TestServices.redisUrl(), prefix, properties("inst-b"));
    }

    @AfterEach
    void stopServers() {
        b.close();
        a.close();
    }

    @Test
    void a_restore_started_on_one_instance_without_waiting_is_followed_to_its_end_on_another() {
        assertThat(b.get("/reStore/progress").data().isNull()).as("no restore ever ran").isTrue();
        pushDueInTenMinutes();
        deleteBucketKeys();

        Reply started = a.post("/reStore?expire=true&wait=false", "");

        assertThat(started.status()).as(started.body()).isEqualTo(202);
        assertThat(started.json().get("code").asInt()).isEqualTo(202);
        JsonNode begun = started.data();
        assertThat(begun.get("running").asBoolean()).isTrue();
        assertThat(begun.get("instance").asString()).isEqualTo("inst-a");
        assertThat(begun.get("finishedAt").isNull()).isTrue();
        assertThat(begun.get("scanned").asLong()).isZero();
        assertThat(begun.get("failure").isNull()).isTrue();
        JsonNode seenAtOnce = b.get("/reStore/progress").data();
        assertThat(seenAtOnce.get("instance").asString()).as("published before the 202").isEqualTo("inst-a");
        assertThat(seenAtOnce.get("startedAt").asLong()).isEqualTo(begun.get("startedAt").asLong());
        List<Long> scanned = new CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode progress = b.get("/reStore/progress").data();
            scanned.add(progress.get("scanned").asLong());
            return !progress.get("running").asBoolean();
        });
        JsonNode done = b.get("/reStore/progress").data();
        assertThat(done.get("instance").asString()).isEqualTo("inst-a");
        assertThat(done.get("startedAt").asLong()).isEqualTo(begun.get("startedAt").asLong());
        assertThat(done.get("finishedAt").asLong()).isGreaterThanOrEqualTo(begun.get("startedAt").asLong());
        assertThat(counts(done)).containsExactly(MESSAGES, MESSAGES, 0L, 0L, 0L);
        assertThat(done.get("failure").isNull()).isTrue();
        assertThat(scanned).as("counts only grow").isSorted();

        Reply again = b.post("/reStore", "");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.data().get("alreadyPresent").asLong()).isEqualTo(MESSAGES);
        JsonNode waited = a.get("/reStore/progress").data();
        assertThat(waited.get("instance").asString()).isEqualTo("inst-b");
        assertThat(waited.get("running").asBoolean()).isFalse();
        assertThat(counts(waited)).containsExactly(MESSAGES, 0L, MESSAGES, 0L, 0L);
    }

    private static Map<String, Object> properties(String name) {
        // no reconciler pass: it would schedule rows still WAIT_PUT, which the restore is meant to put back
        return Map.of("sdmq.host", name, "sdmq.instances.refresh", "1s", "sdmq.recovery.restore-page", "100",
                "sdmq.recovery.auto-restore", "false", "sdmq.recovery.reconcile-interval", "1h");
    }

    private static List<Long> counts(JsonNode progress) {
        List<Long> counts = new ArrayList<>();
        for (String field : List.of("scanned", "restored", "alreadyPresent", "expired", "gone")) {
            counts.add(progress.get(field).asLong());
        }
        return counts;
    }

    private void pushDueInTenMinutes() {
        for (int batch = 0; batch < MESSAGES / 100; batch++) {
            StringBuilder body = new StringBuilder("[");
            for (int i = 0; i < 100; i++) {
                body.append(i == 0 ? "" : ",").append("{\"topic\":\"progress\",\"body\":\"b\",\"delay\":600000}");
            }
            Reply pushed = (batch % 2 == 0 ? a : b).post("/push/batch", body.append("]").toString());
            assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
        }
        await("every push is DELAY in MySQL").atMost(Duration.ofSeconds(30))
                .until(() -> a.get("/topics/progress/stats").data().get("delayed").asLong() == MESSAGES);
    }

    /** Redis loses the messages (every bucket's keys) but not the instances' entries. */
    private void deleteBucketKeys() {
        List<String> keys = new ArrayList<>();
        try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(prefix + ":{b*").count(1_000)
                .build())) {
            cursor.forEachRemaining(keys::add);
        }
        assertThat(keys).isNotEmpty();
        redis.delete(keys);
    }
}
