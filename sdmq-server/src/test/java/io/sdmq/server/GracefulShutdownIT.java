package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * SIGTERM stops a server under push and consume load: it refuses new requests, lets the pushes inside commit and
 * answer, answers the consumers parked in {@code GET /get}, {@code POST /get} and ouqiang's pop with nothing, and
 * exits within its grace period, which it reports as complete. Every push answered with an id is in MySQL and is
 * delivered by a second instance; a message reserved and not finished on the first comes back there after its TTR.
 * <p>
 * The parked consumers wait longer than the grace period: a server that left them parked would abort its graceful
 * shutdown at the end of the period and cut them off. Each topic of them allows {@value #PARKED_PER_TOPIC} waiting
 * consumers, so a probe that is refused with 429 proves they are all parked before the SIGTERM.
 */
class GracefulShutdownIT {
    private static final Duration GRACE = Duration.ofSeconds(20);
    private static final int PARKED_PER_TOPIC = 2;
    private static final long HELD_TTR_MS = 20_000;
    private static final Map<String, String> SETTINGS = Map.of(
            "spring.lifecycle.timeout-per-shutdown-phase", GRACE.toSeconds() + "s",
            "sdmq.consumer.max-waiting-per-topic", Integer.toString(PARKED_PER_TOPIC),
            "sdmq.recovery.reconcile-interval", "1s",
            "sdmq.recovery.grace", "2s");

    @Test
    void sigterm_under_load_answers_parked_consumers_commits_what_it_acknowledged_and_exits_in_its_grace_period()
            throws Exception {
        TestDatabase db = TestServices.freshDatabase();
        DataSource rows = db.dataSource();
        String prefix = TestServices.freshKeyPrefix();
        String run = "shutdown-" + ThreadLocalRandom.current().nextInt(1_000_000) + "-";
        String busy = run + "busy";
        String held = run + "held";
        ServerProcess a = ServerProcess.start(db, TestServices.redisUrl(), prefix, SETTINGS);
        // the second instance starts now, not after the SIGTERM: on a loaded host a start takes long, and an instance
        // already running beside the one stopping is how a rolling deployment meets a shutdown
        try (a; ServerProcess b = ServerProcess.start(db, TestServices.redisUrl(), prefix, SETTINGS);
             Deliveries deliveries = Deliveries.tolerant()) {
            AtomicReference<HttpApi> current = new AtomicReference<>(a.http());
            for (int c = 0; c < 4; c++) {
                deliveries.consume(current::get, busy);
            }
            Set<String> acked;
            String heldId;
            int heldAttempts;
            long reservedFrom;
            Producers producers = Producers.start(8, current::get, () -> "{\"topic\":\"" + busy
                    + "\",\"body\":\"m\",\"delay\":0,\"ttr\":5000}", 100_000, 5);
            try (producers) {
                await().atMost(Duration.ofSeconds(60)).until(() -> producers.ackedCount() >= 200);
                heldId = a.http().post("/push", "{\"topic\":\"" + held + "\",\"body\":\"h\",\"delay\":0,\"ttr\":"
                        + HELD_TTR_MS + "}").data().asString();
                reservedFrom = System.currentTimeMillis();
                JsonNode reserved = a.http().get("/get/" + held + "?timeout=10000").data();
                assertThat(reserved).hasSize(1);
                assertThat(reserved.get(0).get("id").asString()).isEqualTo(heldId);
                heldAttempts = reserved.get(0).get("attempts").asInt();
                List<CompletableFuture<Reply>> parkedGets = park(a.http(), run + "get",
                        api -> api.get("/get/" + run + "get?timeout=60000"));
                List<CompletableFuture<Reply>> parkedPostGets = park(a.http(), run + "post-get",
                        api -> api.post("/get/" + run + "post-get?timeout=60000&count=10", "[]"));
                List<CompletableFuture<Reply>> parkedOuqiang = park(a.http(), run + "ouqiang",
                        api -> api.post("/compat/ouqiang/pop", OuqiangCalls.topic(run + "ouqiang")));

                a.sigterm();
                awaitLog(a.log(), "shutting down: new requests are answered 503");
                List<String> pushedAfter = pushesAfterTheShutdownBegan(a.http(), busy);
                await().atMost(GRACE).until(() -> !a.isAlive());

                assertThat(a.stop()).as("128 + SIGTERM, after the shutdown hooks ran").isEqualTo(143);
                assertThat(Files.readString(a.log())).contains("Graceful shutdown complete")
                        .doesNotContain("Graceful shutdown aborted");
                for (CompletableFuture<Reply> parked : concat(parkedGets, parkedPostGets)) {
                    Reply reply = parked.get(10, TimeUnit.SECONDS);
                    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                }
                parkedGets.forEach(p -> assertThat(p.join().data()).isEmpty());
                parkedPostGets.forEach(p -> assertThat(p.join().data().get("messages")).isEmpty());
                for (CompletableFuture<Reply> parked : parkedOuqiang) {
                    assertThat(OuqiangCalls.ok(parked.get(10, TimeUnit.SECONDS)).get("data").isNull()).isTrue();
                }
                assertThat(pushedAfter).as("pushes sent after the shutdown began: refused (503) or cut off")
                        .allMatch(outcome -> outcome.equals("503") || outcome.equals("no reply"));

                acked = producers.stop();
                assertThat(missingFromMySql(rows, acked)).as("acknowledged pushes not in MySQL").isEmpty();
                System.out.printf("graceful shutdown: pushes acked %d, refused %d, failed %d; after the shutdown "
                                + "began %s; finishes acked %d, failed %d%n", acked.size(), producers.refused(),
                        producers.failed(), pushedAfter, deliveries.finishedAt().size(),
                        deliveries.failedFinishes());
            }

            current.set(b.http());
            deliveries.awaitDelivered(acked, Duration.ofSeconds(90), rows);
            long redeliveredAt = awaitRedelivery(b.http(), held, heldId, heldAttempts + 1, reservedFrom);
            assertThat(redeliveredAt).as("handed out again, not before its TTR ran out")
                    .isGreaterThanOrEqualTo(reservedFrom + HELD_TTR_MS);
            deliveries.stop();
        }
    }

    /**
     * Sends {@value #PARKED_PER_TOPIC} calls that wait on {@code topic}, each on a thread of its own, and waits until
     * the server has all of them parked: a probe that would wait on the topic is then refused with 429.
     */
    private static List<CompletableFuture<Reply>> park(HttpApi api, String topic,
                                                       Function<HttpApi, Reply> call) {
        List<CompletableFuture<Reply>> parked = new ArrayList<>();
        for (int i = 0; i < PARKED_PER_TOPIC; i++) {
            parked.add(CompletableFuture.supplyAsync(() -> call.apply(api), runnable -> new Thread(runnable).start()));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/get/" + topic + "?timeout=0").status() == 429);
        assertThat(parked).noneMatch(CompletableFuture::isDone);
        return parked;
    }

    private static void awaitLog(Path log, String line) {
        await().atMost(GRACE).pollInterval(Duration.ofMillis(20)).until(() -> Files.readString(log).contains(line));
    }

    /** Pushes sent once the server logged the start of its shutdown: "503", "no reply", or "200 <id>". */
    private static List<String> pushesAfterTheShutdownBegan(HttpApi api, String topic) {
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            try {
                Reply reply = api.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"late\",\"delay\":0}");
                outcomes.add(reply.status() == 200 ? "200 " + reply.data().asString()
                        : Integer.toString(reply.status()));
                if (reply.status() == 503) {
                    assertThat(reply.json().get("message").asString()).contains("shutting down");
                }
            } catch (IllegalStateException e) {
                outcomes.add("no reply");
            }
        }
        return outcomes;
    }

    /**
     * Polls the held topic on {@code api} until its message comes again, as its next attempt, within a few TTRs of
     * its reservation; when it came, epoch ms.
     */
    private static long awaitRedelivery(HttpApi api, String topic, String id, int attempts, long reservedFrom) {
        AtomicReference<Long> at = new AtomicReference<>();
        Callable<Boolean> polled = () -> {
            JsonNode got = api.get("/get/" + topic + "?timeout=5000").data();
            if (got.isEmpty()) {
                return false;
            }
            at.set(System.currentTimeMillis());
            assertThat(got.get(0).get("id").asString()).isEqualTo(id);
            assertThat(got.get(0).get("attempts").asInt()).isEqualTo(attempts);
            return true;
        };
        await().atMost(Duration.ofMillis(reservedFrom + 3 * HELD_TTR_MS - System.currentTimeMillis()))
                .until(polled);
        return at.get();
    }

    private static Set<String> missingFromMySql(DataSource rows, Set<String> ids) throws Exception {
        Set<String> missing = new TreeSet<>(ids);
        try (Connection c = rows.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT id FROM sdmq_message");
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                missing.remove(Long.toString(rs.getLong(1)));
            }
        }
        return missing;
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        List<T> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
