package io.sdmq.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard at {@code /ui} in a real browser (headless Chromium where installed, HtmlUnit otherwise; see
 * {@link Browsers}) against a whole server on real Redis and MySQL: signing in, what each page shows after REST
 * calls, and its actions seen through the REST API and a consumer; roles, CSRF and the token's secrecy.
 */
@ExtendWith(OutputCaptureExtension.class)
class DashboardIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ADMIN = "admin-0123456789abcdef";
    private static final String PRODUCER = "producer-0123456789abcdef";
    private static final String CONSUMER = "consumer-0123456789abcdef";
    private static final String VIEWER = "dashboard-0123456789abcdef";
    private static final String ORDERS_VIEWER = "orders-viewer-0123456789abcdef";

    private static WatchedServer watched;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("sdmq.auth.admin-token", ADMIN);
        properties.put("sdmq.auth.producer-token", PRODUCER);
        properties.put("sdmq.auth.consumer-token", CONSUMER);
        properties.put("sdmq.auth.tokens.dashboard.secret", VIEWER);
        properties.put("sdmq.auth.tokens.dashboard.role", "viewer");
        properties.put("sdmq.auth.tokens.orders-viewer.secret", ORDERS_VIEWER);
        properties.put("sdmq.auth.tokens.orders-viewer.role", "viewer");
        properties.put("sdmq.auth.tokens.orders-viewer.topics", "orders.*");
        properties.put("sdmq.consumer.max-wait", "2s");
        properties.put("sdmq.host", "dashboard-host-1");
        watched = WatchedServer.start(properties);
        server = watched.server();
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @Test
    void a_wrong_token_or_one_without_the_viewer_role_cannot_sign_in_and_pages_send_back_to_sign_in() {
        try (Dashboard ui = new Dashboard(server.http().base())) {
            assertThat(ui.open("/ui/topics").path()).isEqualTo("/ui/login");
            for (String token : List.of("wrong-0123456789abcdef", PRODUCER, CONSUMER)) {
                ui.signIn(token);
                assertThat(ui.path()).isEqualTo("/ui/login");
                assertThat(ui.text(".result.error")).isEqualTo("token: is not a viewer or admin token of this server");
                assertThat(ui.cookie()).isNull();
            }
            assertThat(ui.open("/ui/messages").path()).isEqualTo("/ui/login");
        }
    }

    @Test
    void pushed_messages_show_in_their_topics_counts_by_status() {
        for (int i = 0; i < 3; i++) {
            push("dash.counts", "k" + i, 600_000, null);
        }
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN);
            assertThat(ui.path()).isEqualTo("/ui/topics");
            assertThat(ui.text("#caller")).isEqualTo("admin token 1");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                ui.open("/ui/topics?after=dash.count&limit=1");
                assertThat(ui.text("tr[data-topic='dash.counts'] td[data-status='DELAY']")).isEqualTo("3");
            });
            ui.click("tr[data-topic='dash.counts'] a");
            assertThat(ui.text("#topic-name")).isEqualTo("dash.counts");
            assertThat(ui.text("#counts td[data-status='DELAY']")).isEqualTo("3");
            assertThat(ui.text("#paused-state")).isEqualTo("handing out");
            assertThat(ui.text("#delivery")).isEqualTo("pull");
        }
    }

    @Test
    void the_topics_list_goes_a_page_at_a_time_by_name() {
        for (String topic : List.of("dash.page.a", "dash.page.b", "dash.page.c")) {
            push(topic, null, 600_000, null);
        }
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(VIEWER).open("/ui/topics?after=dash.page.&limit=2");
            assertThat(ui.text("#topic-list tbody")).contains("dash.page.a", "dash.page.b")
                    .doesNotContain("dash.page.c");
            ui.click("#next-topics");
            assertThat(ui.text("#topic-list tbody")).contains("dash.page.c").doesNotContain("dash.page.b");
            ui.open("/ui/topics?limit=0");
            assertThat(ui.text(".result.error")).isEqualTo("limit: must be between 1 and 1000");
        }
    }

    @Test
    void a_message_found_by_its_biz_key_shows_its_whole_history() {
        long id = push("dash.history", "order-42", 0, null);
        long taken = take("dash.history");
        assertThat(taken).isEqualTo(id);
        assertThat(rest("POST", "/finish?jobId=" + id, CONSUMER, null).statusCode()).isEqualTo(200);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(VIEWER).open("/ui/messages");
            ui.type("#q-bizKey", "order-42").click("#find");
            assertThat(ui.text("#message-list tbody")).contains(Long.toString(id), "dash.history", "FINISHED");
            ui.click("#message-list a");
            assertThat(ui.text("#message-id")).isEqualTo(Long.toString(id));
            assertThat(ui.text("#biz-key")).isEqualTo("order-42");
            assertThat(ui.text("#status")).isEqualTo("FINISHED");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                ui.open("/ui/messages/" + id);
                assertThat(ui.text("#history")).contains("WAIT_PUT", "READY → RESERVED", "RESERVED → FINISHED");
            });
            assertThat(ui.text("#history thead")).contains("host");
            assertThat(ui.text("#history tbody")).contains("dashboard-host-1");
        }
    }

    @Test
    void a_dead_message_requeued_from_its_page_is_delivered_again() {
        long id = deadMessage("dash.dead");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/messages/" + id);
            assertThat(ui.text("#status")).isEqualTo("DEAD");
            ui.click("#requeue");
            assertThat(ui.waitForText("#action-result", "requeued")).startsWith("requeued");
        }
        assertThat(take("dash.dead")).isEqualTo(id);
    }

    @Test
    void dead_letters_are_requeued_in_bulk_after_a_confirmation() {
        long first = deadMessage("dash.bulk");
        long second = deadMessage("dash.bulk");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/dead?topic=dash.bulk&status=DEAD");
            assertThat(ui.text("#message-list tbody")).contains(Long.toString(first), Long.toString(second));
            ui.click("#requeue-all");
            assertThat(ui.text("#confirm")).contains("requeue every DEAD message of topic dash.bulk");
            assertThat(status(first)).isEqualTo("DEAD");
            ui.click("#confirm-bulk");
            assertThat(ui.waitForText(".result.done", "requeue")).isEqualTo("requeue: 2 matched, 2 changed");
        }
        assertThat(List.of(take("dash.bulk"), take("dash.bulk"))).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void dead_letters_are_deleted_in_bulk_after_a_confirmation() {
        long first = deadMessage("dash.discard");
        long second = deadMessage("dash.discard");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/dead?topic=dash.discard&status=DEAD");
            ui.click("#delete-all");
            assertThat(ui.text("#confirm")).contains("delete every DEAD message of topic dash.discard");
            assertThat(status(first)).isEqualTo("DEAD");
            ui.click("#confirm-bulk");
            assertThat(ui.waitForText(".result.done", "delete")).isEqualTo("delete: 2 matched, 2 changed");
        }
        assertThat(List.of(status(first), status(second))).containsOnly("DELETED");
    }

    @Test
    void a_topics_charts_show_its_deliveries_of_the_last_hour_minute_by_minute() {
        push("dash.chart", null, 0, null);
        push("dash.chart", null, 0, null);
        take("dash.chart");
        take("dash.chart");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(VIEWER);
            await().ignoreExceptions().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                ui.open("/ui/topics/dash.chart");
                assertThat(ui.attribute("#charts", "data-deliveries")).isEqualTo("2");
            });
            assertThat(ui.attribute("#charts", "data-points")).isEqualTo("60");
            if (Browsers.chromium()) {
                assertThat(ui.attribute("#charts", "data-drawn")).as("uPlot drew both charts").isEqualTo("true");
            }
        }
    }

    @Test
    void a_paused_topic_hands_nothing_out_until_it_is_resumed() {
        long id = push("dash.pause", null, 0, null);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/topics/dash.pause");
            ui.click("#pause");
            assertThat(ui.waitForText("#paused-state", "paused")).isEqualTo("paused");
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .until(() -> data(rest("GET", "/get/dash.pause?timeout=0", CONSUMER, null)).isEmpty());
            ui.click("#resume");
            assertThat(ui.waitForText("#paused-state", "handing out")).isEqualTo("handing out");
        }
        assertThat(take("dash.pause")).isEqualTo(id);
    }

    @Test
    void bad_settings_are_shown_as_field_and_rule_and_change_nothing() {
        push("dash.settings", null, 600_000, null);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/topics/dash.settings");
            ui.type("input[name='ttr']", "soon").click("#save-settings");
            assertThat(ui.waitForText("#settings-result", "ttr")).isEqualTo("ttr: must be a whole number");
            ui.type("input[name='ttr']", "0").click("#save-settings");
            assertThat(ui.waitForText("#settings-result", "must be in")).startsWith("ttr: must be in ");
            assertThat(data(rest("GET", "/topics/dash.settings", ADMIN, null)).get("settings").isNull()).isTrue();
            ui.type("input[name='ttr']", "45000").type("input[name='maxAttempts']", "4").click("#save-settings");
            assertThat(ui.waitForText("#settings-result", "saved")).isEqualTo("settings of dash.settings saved");
        }
        JsonNode settings = data(rest("GET", "/topics/dash.settings", ADMIN, null)).get("settings");
        assertThat(settings.get("ttr").asLong()).isEqualTo(45_000);
        assertThat(settings.get("maxAttempts").asInt()).isEqualTo(4);
    }

    @Test
    void a_viewer_finds_no_action_buttons_and_is_refused_when_it_posts_one_anyway() {
        long dead = deadMessage("dash.viewer");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(VIEWER).open("/ui/topics/dash.viewer");
            assertThat(ui.text("#caller")).isEqualTo("dashboard");
            assertThat(ui.has("#pause") || ui.has("#resume") || ui.has("#save-settings")).isFalse();
            ui.open("/ui/messages/" + dead);
            assertThat(ui.text("#status")).isEqualTo("DEAD");
            assertThat(ui.has("#requeue") || ui.has("#delete") || ui.has("#run-now")).isFalse();
            ui.open("/ui/dead?topic=dash.viewer");
            assertThat(ui.has("#requeue-all")).isFalse();
            assertThat(ui.has("#delete-all")).isFalse();

            String cookie = ui.cookie();
            String csrf = ui.csrf();
            assertThat(uiPost("/ui/topics/dash.viewer/pause", cookie, null)).isEqualTo(403);
            assertThat(uiPost("/ui/topics/dash.viewer/pause", cookie, csrf)).isEqualTo(403);
            assertThat(uiPost("/ui/messages/" + dead + "/requeue", cookie, csrf)).isEqualTo(403);
        }
        assertThat(data(rest("GET", "/topics/dash.viewer", ADMIN, null)).get("settings").isNull()).isTrue();
        assertThat(status(dead)).isEqualTo("DEAD");
    }

    @Test
    void an_admin_action_without_this_sign_ins_csrf_token_is_refused() {
        push("dash.csrf", null, 600_000, null);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ADMIN).open("/ui/topics/dash.csrf");
            String cookie = ui.cookie();
            assertThat(uiPost("/ui/topics/dash.csrf/pause", cookie, null)).isEqualTo(403);
            assertThat(uiPost("/ui/topics/dash.csrf/pause", cookie, "forged")).isEqualTo(403);
            assertThat(data(rest("GET", "/topics/dash.csrf", ADMIN, null)).get("settings").isNull()).isTrue();
            assertThat(uiPost("/ui/topics/dash.csrf/pause", cookie, ui.csrf())).isEqualTo(200);
        }
        assertThat(data(rest("GET", "/topics/dash.csrf", ADMIN, null)).get("settings").get("paused").asBoolean())
                .isTrue();
    }

    @Test
    void a_topic_scoped_viewer_sees_only_its_topics() {
        push("orders.dash", null, 600_000, null);
        push("payments.dash", null, 600_000, null);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(ORDERS_VIEWER).open("/ui/topics?limit=1000");
            assertThat(ui.text("#topic-list tbody")).contains("orders.dash").doesNotContain("payments.dash");
            ui.open("/ui/topics/payments.dash");
            assertThat(ui.text(".result.error"))
                    .isEqualTo("topic payments.dash: this token may act only on topics matching orders.*");
            ui.open("/ui/messages?status=DELAY");
            assertThat(ui.text(".result.error")).startsWith("a search without a topic acts on every topic");
        }
    }

    @Test
    void the_instances_page_lists_this_instance_and_recovery_follows_a_restore_to_its_end() {
        push("dash.restore", null, 600_000, null);
        try (Dashboard ui = new Dashboard(server.http().base())) {
            ui.signIn(VIEWER).open("/ui/recovery");
            assertThat(ui.has("#start-restore")).isFalse();
            ui.signIn(ADMIN).open("/ui/instances");
            assertThat(ui.waitForText("#instance-list tbody", "up")).contains("0.1.0-SNAPSHOT");
            ui.open("/ui/recovery").click("#start-restore");
            assertThat(ui.waitForText("#restore-state", "done")).isEqualTo("done");
            assertThat(Long.parseLong(ui.text("#scanned"))).isPositive();
        }
        JsonNode progress = data(rest("GET", "/reStore/progress", VIEWER, null));
        assertThat(progress.get("running").asBoolean()).isFalse();
        assertThat(progress.get("failure").isNull()).isTrue();
        assertThat(progress.get("scanned").asLong()).isPositive();
    }

    @Test
    void signing_out_forgets_the_cookie_and_no_page_or_log_ever_holds_the_token(CapturedOutput output) {
        long id = deadMessage("dash.secret");
        push("dash.secret", "a-key", 600_000, null);
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("topics", "/ui/topics");
        pages.put("topic", "/ui/topics/dash.secret");
        pages.put("messages", "/ui/messages?topic=dash.secret");
        pages.put("message", "/ui/messages/" + id);
        pages.put("dead", "/ui/dead?topic=dash.secret");
        pages.put("instances", "/ui/instances");
        pages.put("recovery", "/ui/recovery");
        try (Dashboard ui = new Dashboard(server.http().base())) {
            for (String token : List.of(ADMIN, VIEWER)) {
                ui.signIn(token);
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    ui.open(page.getValue());
                    assertThat(ui.source()).as(page.getKey()).doesNotContain(token).contains("sdmq");
                    assertThat(ui.path()).as(page.getKey()).isEqualTo(page.getValue());
                    if (token.equals(ADMIN)) {
                        ui.screenshot(page.getKey());
                    }
                }
                ui.open("/ui/login");
                assertThat(ui.source()).doesNotContain(token);
                ui.open("/ui/topics").click("#sign-out");
                assertThat(ui.waitForPath("/ui/login")).isEqualTo("/ui/login");
                assertThat(ui.cookie()).isNull();
                assertThat(ui.open("/ui/topics").path()).isEqualTo("/ui/login");
            }
        }
        assertThat(output.getAll()).contains("dashboard: admin token 1 signed in", "dashboard: dashboard signed in")
                .doesNotContain(ADMIN).doesNotContain(VIEWER);
    }

    @Test
    void a_server_without_tokens_opens_the_dashboard_to_everyone_and_says_so() {
        try (WatchedServer open = WatchedServer.start(Map.of());
             Dashboard ui = new Dashboard(open.server().http().base())) {
            open.server().http().post("/push", "{\"topic\":\"dash.open\",\"body\":\"x\",\"delay\":600000}");
            assertThat(ui.open("/ui/login").path()).isEqualTo("/ui/topics");
            assertThat(ui.text("#open-banner")).startsWith("This server has no tokens");
            assertThat(ui.text("#caller")).isEqualTo("anonymous");
            assertThat(ui.has("#sign-out")).isFalse();
            ui.open("/ui/topics/dash.open").click("#pause");
            assertThat(ui.waitForText("#paused-state", "paused")).isEqualTo("paused");
        }
    }

    /** A POST to the dashboard with the sign-in cookie and, unless null, the CSRF header; its status. */
    private static int uiPost(String path, String cookie, String csrf) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.http().base() + path))
                .header("Cookie", "sdmq_ui=" + cookie).header("HX-Request", "true")
                .POST(HttpRequest.BodyPublishers.noBody());
        if (csrf != null) {
            request.header("X-CSRF-Token", csrf);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            throw new IllegalStateException("request failed", e);
        }
    }

    private static HttpResponse<String> rest(String method, String path, String token, String json) {
        return server.http().send(method, path, "Bearer " + token, json);
    }

    /** Pushes a message due in {@code delay} ms; its id. */
    private static long push(String topic, String bizKey, long delay, Integer maxAttempts) {
        String body = "{\"topic\":\"" + topic + "\",\"body\":\"hello " + topic + "\",\"delay\":" + delay
                + (bizKey == null ? "" : ",\"bizKey\":\"" + bizKey + "\"")
                + (maxAttempts == null ? "" : ",\"maxAttempts\":" + maxAttempts) + "}";
        HttpResponse<String> reply = rest("POST", "/push", PRODUCER, body);
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return Long.parseLong(data(reply).asString());
    }

    /** A message of {@code topic} made DEAD by its consumer; its id. */
    private static long deadMessage(String topic) {
        long id = push(topic, null, 0, null);
        assertThat(take(topic)).isEqualTo(id);
        assertThat(rest("POST", "/nack?dead=true&jobId=" + id, CONSUMER, null).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> status(id).equals("DEAD"));
        return id;
    }

    /** The id of the first message a consumer's {@code /get} of {@code topic} hands out, once one is due. */
    private static long take(String topic) {
        AtomicReference<JsonNode> got = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            got.set(data(rest("GET", "/get/" + topic + "?timeout=1000", CONSUMER, null)));
            return !got.get().isEmpty();
        });
        return Long.parseLong(got.get().get(0).get("id").asString());
    }

    private static String status(long id) {
        return data(rest("GET", "/job/" + id, ADMIN, null)).get("status").asString();
    }

    private static JsonNode data(HttpResponse<String> reply) {
        return JSON.readTree(reply.body()).get("data");
    }
}
