package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /instances} on instances sharing one Redis and one MySQL: each lists all of them; one killed with
 * SIGKILL reads down, then drops out once its entry expires; one stopped gracefully leaves at once; with Redis gone
 * the route answers 503. Entries are written every second here ({@code sdmq.instances.refresh=1s}).
 */
class InstancesIT {
    /** The fields of an entry, the contract the dashboard renders. */
    private static final Set<String> FIELDS = Set.of("instance", "host", "startedAt", "lastSeen", "up",
            "schedulerLagMs", "statusLogPending", "pushTopics", "version");

    private final TestDatabase db = TestServices.freshDatabase();
    private final String prefix = TestServices.freshKeyPrefix();

    @Test
    void each_instance_lists_every_instance_and_a_killed_one_reads_down_then_drops_out() {
        try (RunningServer a = RunningServer.start(db, TestServices.redisUrl(), prefix, named("inst-a"));
             ServerProcess b = ServerProcess.start(db, TestServices.redisUrl(), prefix, named("inst-b"))) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(names(a)).containsExactly("inst-a", "inst-b");
                assertThat(names(b)).containsExactly("inst-a", "inst-b");
            });
            for (JsonNode entry : a.get("/instances").data()) {
                assertThat(fieldNames(entry)).isEqualTo(new TreeSet<>(FIELDS));
                assertThat(entry.get("up").asBoolean()).isTrue();
                assertThat(entry.get("version").asString()).matches("\\d+\\.\\d+\\.\\d+.*");
                assertThat(entry.get("host").asString()).isNotBlank();
                assertThat(entry.get("startedAt").asLong()).isPositive()
                        .isLessThanOrEqualTo(entry.get("lastSeen").asLong());
                assertThat(entry.get("schedulerLagMs").asLong()).isNotNegative();
                assertThat(entry.get("statusLogPending").asLong()).isNotNegative();
                assertThat(entry.get("pushTopics").asInt()).isZero();
            }
            long seen = entry(a, "inst-b").orElseThrow().get("lastSeen").asLong();
            await("inst-b writes its entry again").atMost(Duration.ofSeconds(10))
                    .until(() -> entry(a, "inst-b").orElseThrow().get("lastSeen").asLong() > seen);

            b.kill9();
            List<Boolean> upAfterKill = new CopyOnWriteArrayList<>();
            await("inst-b drops out").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).until(() -> {
                entry(a, "inst-b").ifPresent(e -> upAfterKill.add(e.get("up").asBoolean()));
                return names(a).equals(List.of("inst-a"));
            });
            assertThat(upAfterKill).as("inst-b read down before its entry expired").contains(false);
            assertThat(entry(a, "inst-a").orElseThrow().get("up").asBoolean()).isTrue();
        }
    }

    @Test
    void an_instance_stopped_gracefully_leaves_the_list_at_once() {
        try (RunningServer a = RunningServer.start(db, TestServices.redisUrl(), prefix, named("inst-a"))) {
            RunningServer c = RunningServer.start(db, TestServices.redisUrl(), prefix, named("inst-c"));
            await().atMost(Duration.ofSeconds(10)).until(() -> names(a).equals(List.of("inst-a", "inst-c")));

            c.close();

            assertThat(names(a)).containsExactly("inst-a");
        }
    }

    @Test
    void with_redis_gone_the_instances_and_the_restore_progress_answer_503_in_the_envelope() {
        try (RedisProcess redis = RedisProcess.start();
             RunningServer a = RunningServer.start(db, redis.url(), prefix, named("inst-a"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> names(a).equals(List.of("inst-a")));

            redis.stop();

            for (String path : List.of("/instances", "/reStore/progress")) {
                Reply reply = a.get(path);
                assertThat(reply.status()).as(path).isEqualTo(503);
                assertThat(ErrorEnvelope.messageOf(path, 503, reply.body()))
                        .isEqualTo("Redis is unavailable; retry later");
            }
            redis.startAgain();
            await("the entry is written again").atMost(Duration.ofSeconds(20))
                    .until(() -> a.get("/instances").status() == 200 && names(a).equals(List.of("inst-a")));
        }
    }

    private static Map<String, Object> named(String name) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("sdmq.host", name);
        properties.put("sdmq.instances.refresh", "1s");
        return properties;
    }

    private static List<String> names(ServerUnderTest server) {
        Reply reply = server.get("/instances");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        reply.data().forEach(e -> names.add(e.get("instance").asString()));
        return names;
    }

    private static Optional<JsonNode> entry(ServerUnderTest server, String name) {
        for (JsonNode e : server.get("/instances").data()) {
            if (e.get("instance").asString().equals(name)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    private static Set<String> fieldNames(JsonNode entry) {
        Set<String> names = new TreeSet<>();
        entry.properties().forEach(property -> names.add(property.getKey()));
        return names;
    }
}
