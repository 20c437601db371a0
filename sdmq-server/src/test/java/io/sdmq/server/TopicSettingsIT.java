package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Topic settings over HTTP on two servers sharing Redis and MySQL: defaults for new pushes, maxDelay, pause and
 * resume, the admin routes, a change seen by the other instance, and every bad field refused with nothing changed.
 */
class TopicSettingsIT {
    private static TestDatabase db;
    private static RunningServer a;
    private static RunningServer b;

    @BeforeAll
    static void startServers() {
        db = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        a = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of());
        b = RunningServer.start(db, TestServices.redisUrl(), prefix, Map.of());
    }

    @AfterAll
    static void stopServers() {
        a.close();
        b.close();
    }

    @Test
    void settings_are_the_defaults_of_pushes_that_carry_none_and_leave_pushes_with_their_own_values_alone() {
        String topic = topic("defaults");
        assertThat(put(a, topic, "{\"ttr\":5000,\"maxAttempts\":3,\"retryDelays\":[100,200],\"priority\":7}")
                .status()).isEqualTo(200);

        JsonNode defaulted = a.get("/job/" + push(a, topic, "")).data();
        assertThat(defaulted.get("ttr").asLong()).isEqualTo(5_000);
        assertThat(defaulted.get("maxAttempts").asInt()).isEqualTo(3);
        assertThat(defaulted.get("priority").asInt()).isEqualTo(7);
        assertThat(retryDelays(defaulted.get("id").asString())).isEqualTo("100,200");

        String ownId = push(a, topic, ",\"ttr\":2000,\"maxAttempts\":5,\"retryDelays\":[9],\"priority\":1");
        JsonNode own = a.get("/job/" + ownId).data();
        assertThat(own.get("ttr").asLong()).isEqualTo(2_000);
        assertThat(own.get("maxAttempts").asInt()).isEqualTo(5);
        assertThat(own.get("priority").asInt()).isEqualTo(1);
        assertThat(retryDelays(ownId)).isEqualTo("9");
    }

    @Test
    void a_topic_without_settings_takes_the_server_defaults() {
        String topic = topic("plain");
        String id = push(a, topic, "");
        JsonNode plain = a.get("/job/" + id).data();
        assertThat(plain.get("ttr").asLong()).isEqualTo(30_000);
        assertThat(plain.get("maxAttempts").asInt()).isEqualTo(8);
        assertThat(plain.get("priority").asInt()).isEqualTo(0);
        assertThat(retryDelays(id)).isNull();
        assertThat(a.get("/topics/" + topic).data().get("settings").isNull()).isTrue();
        assertThat(a.get("/get/" + topic + "?timeout=5000").data().get(0).get("id").asString()).isEqualTo(id);
    }

    @Test
    void a_change_made_on_one_instance_is_seen_by_the_other_within_about_a_second() {
        String topic = topic("seen");
        assertThat(put(a, topic, "{\"priority\":9}").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> b.get("/job/" + push(b, topic, "")).data().get("priority").asInt() == 9);
        assertThat(a.http().send("DELETE", "/topics/" + topic, null, null).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> b.get("/job/" + push(b, topic, "")).data().get("priority").asInt() == 0);
    }

    @Test
    void a_topic_max_delay_refuses_a_push_due_later() {
        String topic = topic("maxdelay");
        assertThat(put(a, topic, "{\"maxDelay\":1000}").status()).isEqualTo(200);
        Reply late = a.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"x\",\"delay\":1001}");
        assertThat(late.status()).isEqualTo(400);
        assertThat(late.json().get("message").asString()).isEqualTo("delay: must be in 0..1000 ms");
        assertThat(a.get("/topics/" + topic).data().get("counts").isEmpty()).isTrue();
        assertThat(a.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"x\",\"delay\":1000}").status())
                .isEqualTo(200);
    }

    @Test
    void a_paused_topic_takes_pushes_hands_out_nothing_and_resume_hands_out_the_backlog_to_a_parked_consumer() {
        String topic = topic("pause");
        assertThat(a.postForm("/topics/" + topic + "/pause").status()).isEqualTo(200);
        List<String> pushed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pushed.add(push(a, topic, ""));
        }
        assertThat(a.get("/get/" + topic + "?timeout=1500&count=3").data()).isEmpty();
        CompletableFuture<Reply> parked = CompletableFuture.supplyAsync(
                () -> a.get("/get/" + topic + "?timeout=30000&count=3&linger=50"));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> !parked.isDone());
        JsonNode view = a.get("/topics/" + topic).data();
        assertThat(view.get("settings").get("paused").asBoolean()).isTrue();
        assertThat(view.get("counts").get("READY").asLong()).isEqualTo(3);

        assertThat(a.postForm("/topics/" + topic + "/resume").status()).isEqualTo(200);
        List<String> got = new ArrayList<>();
        parked.join().data().forEach(m -> got.add(m.get("id").asString()));
        while (got.size() < 3) {
            a.get("/get/" + topic + "?timeout=5000&count=3").data().forEach(m -> got.add(m.get("id").asString()));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(pushed);
        assertThat(a.get("/topics/" + topic).data().get("settings").get("paused").asBoolean()).isFalse();
    }

    @Test
    void topics_are_listed_with_their_counts_and_delete_drops_the_settings_but_not_the_messages() {
        String withSettings = topic("listed");
        String withMessages = topic("listed");
        put(a, withSettings, "{\"rateLimit\":50}");
        push(a, withMessages, "");
        push(a, withMessages, "");
        JsonNode list = a.get("/topics").data();
        List<String> names = new ArrayList<>();
        list.forEach(t -> names.add(t.get("topic").asString()));
        assertThat(names).contains(withSettings, withMessages);
        for (JsonNode t : list) {
            if (t.get("topic").asString().equals(withMessages)) {
                assertThat(t.get("settings").isNull()).isTrue();
                long total = 0;
                for (JsonNode count : t.get("counts")) {
                    total += count.asLong();
                }
                assertThat(total).isEqualTo(2);
            }
            if (t.get("topic").asString().equals(withSettings)) {
                assertThat(t.get("settings").get("rateLimit").asInt()).isEqualTo(50);
            }
        }
        put(a, withMessages, "{\"priority\":3}");
        assertThat(a.http().send("DELETE", "/topics/" + withMessages, null, null).body()).contains("\"data\":true");
        Reply deleted = a.get("/topics/" + withMessages);
        assertThat(deleted.data().get("settings").isNull()).isTrue();
        assertThat(deleted.data().get("counts").size()).isPositive();
    }

    @Test
    void a_push_whose_biz_key_belongs_to_a_finished_message_answers_its_id_and_changes_nothing() {
        String topic = topic("finished-key");
        String body = "{\"topic\":\"" + topic + "\",\"bizKey\":\"k-1\",\"body\":\"first\",\"delay\":0}";
        Reply first = a.post("/push", body);
        String id = first.data().asString();
        JsonNode popped = a.get("/get/" + topic + "?timeout=5000").data().get(0);
        assertThat(popped.get("id").asString()).isEqualTo(id);
        assertThat(a.postForm("/finish?jobId=" + id).status()).isEqualTo(200);
        // the moves to READY and RESERVED reach the status log in the background, after the finish's commit
        await().atMost(Duration.ofSeconds(10)).until(() -> a.get("/job/" + id).data().get("history")
                .findValuesAsString("to").containsAll(List.of("READY", "RESERVED", "FINISHED")));
        int historyBefore = a.get("/job/" + id).data().get("history").size();

        Reply again = a.post("/push", body.replace("first", "second"));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.data().asString()).isEqualTo(id);
        JsonNode job = a.get("/job/" + id).data();
        assertThat(job.get("status").asString()).isEqualTo("FINISHED");
        assertThat(job.get("body").asString()).isEqualTo("first");
        assertThat(job.get("history").size()).isEqualTo(historyBefore);
        assertThat(a.get("/get/" + topic + "?timeout=1500").data()).isEmpty();
        assertThat(a.get("/topics/" + topic).data().get("counts")).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void a_bad_setting_answers_400_naming_its_field_and_changes_nothing(String body, String field) {
        String topic = topic("bad");
        String before = "{\"ttr\":4000,\"priority\":2,\"rateLimit\":10}";
        assertThat(put(a, topic, before).status()).isEqualTo(200);
        String stored = a.get("/topics/" + topic).data().get("settings").toString();

        Reply bad = put(a, topic, body);
        assertThat(bad.status()).as(bad.body()).isEqualTo(400);
        assertThat(bad.json().get("message").asString()).startsWith(field);
        assertThat(a.get("/topics/" + topic).data().get("settings").toString()).isEqualTo(stored);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> badSettings() {
        long maxTtr = 12 * 3_600_000L;
        return Stream.of(
                args("{\"ttr\":999}", "ttr: must be in 1000.." + maxTtr + " ms"),
                args("{\"ttr\":" + (maxTtr + 1) + "}", "ttr: must be in 1000.." + maxTtr + " ms"),
                args("{\"ttr\":\"soon\"}", "ttr"),
                args("{\"maxAttempts\":0}", "maxAttempts: must be in 1..100"),
                args("{\"maxAttempts\":101}", "maxAttempts: must be in 1..100"),
                args("{\"retryDelays\":[]}", "retryDelays: must hold 1..100 delays"),
                args("{\"retryDelays\":[-1]}", "retryDelays: each delay must be in 0.."),
                args("{\"retryDelays\":[null]}", "retryDelays: each delay must be in 0.."),
                args("{\"priority\":-1}", "priority: must be in 0..999"),
                args("{\"priority\":1000}", "priority: must be in 0..999"),
                args("{\"maxDelay\":-1}", "maxDelay: must be in 0..31536000000 ms"),
                args("{\"maxDelay\":31536000001}", "maxDelay: must be in 0..31536000000 ms"),
                args("{\"retention\":59999}", "retention: must be in 60000.."),
                args("{\"rateLimit\":0}", "rateLimit: must be in 1..1000000"),
                args("{\"rateLimit\":1000001}", "rateLimit: must be in 1..1000000"),
                args("{\"maxInFlight\":0}", "maxInFlight: must be in 1..1000000"),
                args("{\"maxInFlight\":-5}", "maxInFlight: must be in 1..1000000"),
                args("{\"maxInFlight\":2147483648}", "maxInFlight"),
                args("[1]", ""),
                args("not json", ""));
    }

    @Test
    void a_bad_topic_name_answers_400_on_every_route_and_stores_nothing() {
        for (String path : List.of("/topics/bad%20topic", "/topics/" + "x".repeat(65), "/topics/a*b")) {
            assertThat(a.get(path).json().get("message").asString()).as(path).startsWith("topic: must match");
            assertThat(put(a, path.substring("/topics/".length()), "{}").status()).as(path).isEqualTo(400);
            assertThat(a.http().send("DELETE", path, null, null).statusCode()).as(path).isEqualTo(400);
            assertThat(a.postForm(path + "/pause").status()).as(path).isEqualTo(400);
            assertThat(a.postForm(path + "/resume").status()).as(path).isEqualTo(400);
        }
        assertThat(rows("SELECT COUNT(*) FROM sdmq_topic WHERE topic NOT LIKE 'ts-%'")).isZero();
    }

    private static org.junit.jupiter.params.provider.Arguments args(String body, String field) {
        return org.junit.jupiter.params.provider.Arguments.of(body, field);
    }

    private static Reply put(RunningServer server, String topic, String json) {
        var response = server.http().send("PUT", "/topics/" + topic, null, json);
        return new Reply(response.statusCode(), response.body());
    }

    private static String push(RunningServer server, String topic, String extra) {
        Reply reply = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"m\",\"delay\":0" + extra + "}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static String retryDelays(String id) {
        try (Connection c = db.connection();
             PreparedStatement s = c.prepareStatement("SELECT retry_delays FROM sdmq_message WHERE id = ?")) {
            s.setLong(1, Long.parseLong(id));
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long rows(String sql) {
        try (Connection c = db.connection(); PreparedStatement s = c.prepareStatement(sql);
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String topic(String name) {
        return "ts-" + name + "-" + ThreadLocalRandom.current().nextInt(1_000_000);
    }
}
