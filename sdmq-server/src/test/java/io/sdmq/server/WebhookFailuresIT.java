package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.server.WebhookReceiver.Answer;
import io.sdmq.server.WebhookReceiver.Received;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.sdmq.server.WebhookTopics.failureNotes;
import static io.sdmq.server.WebhookTopics.firstThenOk;
import static io.sdmq.server.WebhookTopics.push;
import static io.sdmq.server.WebhookTopics.secret;
import static io.sdmq.server.WebhookTopics.status;
import static io.sdmq.server.WebhookTopics.topic;
import static io.sdmq.server.WebhookTopics.webhook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a webhook's failures come to: a 5xx or a timeout retried on the topic's backoff with the answer in the status
 * log, a receiver that is down leaves the message DEAD until {@code /requeue}, a 429 or 503 waits its {@code Retry-After}, a
 * 404 is DEAD at once unless the topic retries 4xx.
 */
class WebhookFailuresIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestDatabase db;
    private static RunningServer server;

    @BeforeAll
    static void startServer() {
        db = TestServices.freshDatabase();
        server = RunningServer.start(db, TestServices.redisUrl(), TestServices.freshKeyPrefix(),
                Map.of("sdmq.delivery.webhook.allowed-hosts", "127.0.0.1"));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_500_is_retried_after_the_topic_backoff_and_its_answer_is_in_the_status_log() {
        String topic = topic("500");
        try (WebhookReceiver receiver = WebhookReceiver.start(firstThenOk(() -> Answer.of(500, "database\nlocked")))) {
            webhook(server, topic, "\"maxAttempts\":3,\"retryDelays\":[200,400],", receiver.url(), secret(), "");
            String id = push(server, topic, "{\"n\":1}");
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));

            List<Received> got = receiver.of(id);
            assertThat(got).extracting(Received::attempt).containsExactly(1L, 2L);
            assertThat(got.get(1).dueTime()).as("due after the first backoff")
                    .isGreaterThanOrEqualTo(got.get(0).at() + 200);
            await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 1);
            assertThat(failureNotes(db, id)).containsExactly("webhook 500 database locked");
        }
    }

    @Test
    void a_receiver_that_is_down_leaves_the_message_dead_and_a_requeue_delivers_it_once_it_listens() throws Exception {
        String topic = topic("down");
        int port = freePort();
        webhook(server, topic, "\"maxAttempts\":2,\"retryDelays\":[100],", "http://127.0.0.1:" + port + "/hook",
                secret(), ",\"timeout\":1000");
        String id = push(server, topic, "{\"n\":2}");
        await().atMost(WAIT).until(() -> "DEAD".equals(status(db, id)));
        await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 2);
        assertThat(failureNotes(db, id)).allSatisfy(note -> assertThat(note).startsWith("webhook: ConnectException"));

        try (WebhookReceiver receiver = WebhookReceiver.startOn(port, r -> Answer.ok())) {
            Reply requeued = server.postForm("/requeue?id=" + id);
            assertThat(requeued.status()).as(requeued.body()).isEqualTo(200);
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> receiver.of(id).size() == 1);
        }
    }

    @Test
    void a_receiver_slower_than_the_timeout_is_retried_with_the_timeout_as_note() {
        String topic = topic("slow");
        try (WebhookReceiver receiver = WebhookReceiver.start(firstThenOk(() -> {
            sleep(2_000);
            return Answer.ok();
        }))) {
            webhook(server, topic, "\"maxAttempts\":3,\"retryDelays\":[0],", receiver.url(), secret(),
                    ",\"timeout\":500");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));

            assertThat(receiver.of(id)).extracting(Received::attempt).containsExactly(1L, 2L);
            await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 1);
            // the dispatcher ends the send at the timeout; the client's socket timeout, started later, rarely wins
            assertThat(failureNotes(db, id).get(0))
                    .matches("webhook: (SocketTimeoutException: Read timed out|no answer within 500 ms)");
        }
    }

    @Test
    void a_429_waits_its_retry_after_in_seconds_in_place_of_the_topic_backoff() {
        String topic = topic("429");
        Answer tooMany = new Answer(429, Map.of("Retry-After", "2"), "slow down");
        try (WebhookReceiver receiver = WebhookReceiver.start(firstThenOk(() -> tooMany))) {
            webhook(server, topic, "\"maxAttempts\":3,\"retryDelays\":[0],", receiver.url(), secret(), "");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));

            List<Received> got = receiver.of(id);
            assertThat(got).hasSize(2);
            assertThat(got.get(1).dueTime()).isGreaterThanOrEqualTo(got.get(0).at() + 2_000);
            await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 1);
            assertThat(failureNotes(db, id)).containsExactly("webhook 429 slow down");
        }
    }

    @Test
    void a_503_waits_its_retry_after_as_an_http_date() {
        String topic = topic("503");
        try (WebhookReceiver receiver = WebhookReceiver.start(firstThenOk(() -> new Answer(503,
                Map.of("Retry-After", DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(3))), "")))) {
            webhook(server, topic, "\"maxAttempts\":3,\"retryDelays\":[0],", receiver.url(), secret(), "");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));

            List<Received> got = receiver.of(id);
            assertThat(got).hasSize(2);
            // the date has whole seconds: at least 2 s after the first answer, not the topic's 0
            assertThat(got.get(1).dueTime()).isGreaterThanOrEqualTo(got.get(0).at() + 1_000);
        }
    }

    @Test
    void a_404_is_dead_at_once() {
        String topic = topic("404");
        try (WebhookReceiver receiver = WebhookReceiver.start(r -> Answer.of(404, "no such hook"))) {
            webhook(server, topic, "\"maxAttempts\":5,\"retryDelays\":[0],", receiver.url(), secret(), "");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "DEAD".equals(status(db, id)));
            assertThat(receiver.of(id)).hasSize(1);
            await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 1);
            assertThat(failureNotes(db, id)).containsExactly("webhook 404 no such hook");
        }
    }

    @Test
    void a_404_is_retried_when_the_topic_retries_4xx() {
        String topic = topic("404retry");
        try (WebhookReceiver receiver = WebhookReceiver.start(firstThenOk(() -> Answer.of(404, "not yet")))) {
            webhook(server, topic, "\"maxAttempts\":5,\"retryDelays\":[0],", receiver.url(), secret(),
                    ",\"retryOn4xx\":true");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "FINISHED".equals(status(db, id)));
            assertThat(receiver.of(id)).extracting(Received::attempt).containsExactly(1L, 2L);
        }
    }

    @Test
    void a_redirect_is_not_followed_and_the_message_is_dead() {
        String topic = topic("302");
        try (WebhookReceiver receiver = WebhookReceiver.start(
                r -> new Answer(302, Map.of("Location", "http://127.0.0.1:9/elsewhere"), ""))) {
            webhook(server, topic, "\"maxAttempts\":5,", receiver.url(), secret(), "");
            String id = push(server, topic, "x");
            await().atMost(WAIT).until(() -> "DEAD".equals(status(db, id)));
            assertThat(receiver.of(id)).hasSize(1);
            await().atMost(WAIT).until(() -> failureNotes(db, id).size() == 1);
            assertThat(failureNotes(db, id)).containsExactly("webhook 302 redirects are not followed");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void a_topic_never_has_more_requests_under_way_than_its_concurrency() {
        String topic = topic("concurrency");
        try (WebhookReceiver receiver = WebhookReceiver.start(r -> {
            sleep(100);
            return Answer.ok();
        })) {
            webhook(server, topic, "", receiver.url(), secret(), ",\"concurrency\":3");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                ids.add(push(server, topic, "m" + i));
            }
            await().atMost(WAIT).until(() -> ids.stream().allMatch(id -> "FINISHED".equals(status(db, id))));
            assertThat(receiver.received()).hasSize(30);
            assertThat(receiver.maxInFlight()).isEqualTo(3);
        }
    }

    /** A loopback port nothing listens on (a moment ago). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
