package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * MySQL goes away under a running server (a TCP proxy between them is cut): a push answers 503 within the write
 * timeout, says why in plain words and leaves Redis untouched; once MySQL is back, pushes are accepted and delivered.
 */
class MySqlUnreachableIT {
    private static final Pattern JDBC_HOST_PORT = Pattern.compile("^(jdbc:[a-z]+://)([^/:?]+)(?::(\\d+))?(/.*)$");
    private static final long WRITE_TIMEOUT_MS = 3_000;

    @Test
    void the_proxy_forwards_drops_everything_when_cut_and_forwards_again_when_restored() throws Exception {
        try (Greeter greeter = new Greeter(); TcpProxy proxy = TcpProxy.to("127.0.0.1", greeter.port())) {
            try (Socket before = connect(proxy.port())) {
                assertThat(firstLine(before)).isEqualTo("hello");

                proxy.cut();

                assertThat(firstLine(before)).as("a connection open at the cut is closed").isNull();
            }
            try (Socket during = connect(proxy.port())) {
                assertThat(firstLine(during)).as("a connection made while cut is closed").isNull();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> proxy.openSockets() == 0);

            proxy.restore();

            try (Socket after = connect(proxy.port())) {
                assertThat(firstLine(after)).isEqualTo("hello");
            }
        }
    }

    @Test
    void a_push_answers_503_and_writes_nothing_to_redis_while_mysql_is_unreachable_then_works_again() throws Exception {
        TestDatabase direct = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        String topic = "mysql-cut-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String refusedTopic = topic + "-refused";

        try (TcpProxy proxy = proxyTo(direct)) {
            try (RunningServer server = RunningServer.start(through(proxy, direct), TestServices.redisUrl(), prefix,
                    Map.of("spring.datasource.hikari.connection-timeout", "2000",
                            "sdmq.journal.write-timeout", WRITE_TIMEOUT_MS + "ms"))) {
                String first = pushOk(server, topic, 0);
                assertThat(popOne(server, topic)).isEqualTo(first);
                assertThat(server.postForm("/finish?jobId=" + first).status()).isEqualTo(200);
                pushOk(server, topic + "-later", 600_000);
                Map<String, Long> redisBefore = redisContents(prefix);
                assertThat(redisBefore).as("the waiting message is in Redis").isNotEmpty();

                proxy.cut();

                for (int i = 0; i < 3; i++) {
                    long start = System.nanoTime();
                    Reply refused = push(server, refusedTopic, "refused-" + i, 0);
                    long tookMs = (System.nanoTime() - start) / 1_000_000;
                    System.out.printf("push with MySQL cut: %d in %d ms: %s%n", refused.status(), tookMs,
                            refused.body());
                    assertThat(refused.status()).as(refused.body()).isEqualTo(503);
                    assertThat(refused.json().get("success").asBoolean()).isFalse();
                    assertThat(refused.json().get("code").asInt()).isEqualTo(503);
                    assertPlainMessage(refused.json().get("message").asString());
                    assertThat(tookMs).as("answered within the write timeout and a margin")
                            .isLessThan(WRITE_TIMEOUT_MS + 2_000);
                }
                assertThat(redisContents(prefix)).as("Redis under prefix " + prefix).isEqualTo(redisBefore);

                proxy.restore();

                String accepted = awaitAcceptedPush(server, topic, "after-restore");
                assertThat(popOne(server, topic)).isEqualTo(accepted);
                assertThat(server.postForm("/finish?jobId=" + accepted).status()).isEqualTo(200);
                assertThat(server.get("/get/" + refusedTopic + "?timeout=1000").data()).isEmpty();
            }
        }
        DataSource dataSource = direct.dataSource();
        assertThat(rowsOf(dataSource, refusedTopic)).as("no refused push was stored").isZero();
        assertThat(rowsOf(dataSource, topic)).isEqualTo(2);
    }

    @Test
    void a_mysql_connection_that_hangs_fails_after_the_socket_timeout_and_pushes_work_again_on_new_ones()
            throws Exception {
        TestDatabase direct = TestServices.freshDatabase();
        String topic = "mysql-hang-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String refusedTopic = topic + "-refused";

        try (TcpProxy proxy = proxyTo(direct)) {
            try (RunningServer server = RunningServer.start(through(proxy, direct), TestServices.redisUrl(),
                    TestServices.freshKeyPrefix(), Map.of(
                            "spring.datasource.hikari.data-source-properties.socketTimeout", "2000",
                            "sdmq.journal.write-timeout", WRITE_TIMEOUT_MS + "ms"))) {
                String before = pushOk(server, topic, 0);

                // the commit connection was used a moment ago, so the pool lends it again without checking it
                proxy.freeze();
                Reply refused = push(server, refusedTopic, "refused", 0);
                assertThat(refused.status()).as(refused.body()).isEqualTo(503);

                String accepted = awaitAcceptedPush(server, topic, "after-hang");
                assertThat(popOne(server, topic)).isIn(before, accepted);
                assertThat(popOne(server, topic)).isIn(before, accepted);
            }
        }
        assertThat(rowsOf(direct.dataSource(), refusedTopic)).as("the refused push never reached MySQL").isZero();
        assertThat(rowsOf(direct.dataSource(), topic)).isEqualTo(2);
    }

    private static void assertPlainMessage(String message) {
        assertThat(message).isNotBlank()
                .containsIgnoringCase("mysql")
                .doesNotContain("SELECT ", "INSERT INTO", "UPDATE ", "sdmq_message", "###", "jdbc:", "HikariPool")
                .doesNotContain("Exception", "java.", "javax.", "org.", "com.", "io.sdmq");
    }

    /** A proxy to the MySQL server of {@code db}'s URL. */
    private static TcpProxy proxyTo(TestDatabase db) {
        Matcher url = jdbcUrl(db);
        return TcpProxy.to(url.group(2), url.group(3) == null ? 3306 : Integer.parseInt(url.group(3)));
    }

    /** {@code db} reached through {@code proxy}. */
    private static TestDatabase through(TcpProxy proxy, TestDatabase db) {
        Matcher url = jdbcUrl(db);
        return new TestDatabase(url.group(1) + "127.0.0.1:" + proxy.port() + url.group(4), db.user(), db.password());
    }

    private static Matcher jdbcUrl(TestDatabase db) {
        Matcher url = JDBC_HOST_PORT.matcher(db.jdbcUrl());
        assertThat(url.matches()).as(db.jdbcUrl()).isTrue();
        return url;
    }

    /** Pushes to {@code topic} until a push is accepted (MySQL is reachable again); answers its id. */
    private static String awaitAcceptedPush(RunningServer server, String topic, String bizKey) {
        AtomicReference<String> accepted = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Reply reply = push(server, topic, bizKey, 0);
            if (reply.status() == 200) {
                accepted.set(reply.data().asString());
            }
            return accepted.get() != null;
        });
        return accepted.get();
    }

    private static String pushOk(RunningServer server, String topic, long delay) {
        Reply reply = push(server, topic, null, delay);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.data().asString();
    }

    private static Reply push(RunningServer server, String topic, String bizKey, long delay) {
        String key = bizKey == null ? "" : ",\"bizKey\":\"" + bizKey + "\"";
        return server.post("/push", "{\"topic\":\"" + topic + "\"" + key + ",\"body\":\"b\",\"delay\":" + delay + "}");
    }

    private static String popOne(RunningServer server, String topic) {
        JsonNode got = server.get("/get/" + topic + "?timeout=10000").data();
        assertThat(got).hasSize(1);
        return got.get(0).get("id").asString();
    }

    /**
     * Every key under the prefix with its number of elements (fields, members, list items; 1 for a string), but for
     * the per-minute delivery series, which the series writer puts in Redis in the background for deliveries made
     * before the cut: whenever its next write falls, it is no push's.
     */
    private static Map<String, Long> redisContents(String prefix) {
        StringRedisTemplate redis = TestServices.redisTemplate();
        Map<String, Long> contents = new TreeMap<>();
        try (Cursor<String> keys = redis.scan(ScanOptions.scanOptions().match(prefix + ":*").count(1_000).build())) {
            keys.forEachRemaining(key -> {
                if (key.startsWith(prefix + ":series:")) {
                    return;
                }
                DataType type = redis.type(key);
                long size = switch (type) {
                    case HASH -> redis.opsForHash().size(key);
                    case ZSET -> redis.opsForZSet().zCard(key);
                    case LIST -> redis.opsForList().size(key);
                    case SET -> redis.opsForSet().size(key);
                    default -> 1L;
                };
                contents.put(key, size);
            });
        }
        return contents;
    }

    private static int rowsOf(DataSource dataSource, String topic) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM sdmq_message WHERE topic = ?")) {
            s.setString(1, topic);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(5_000);
        return socket;
    }

    /** The next line the peer sends, or null once it closed or reset the connection. */
    private static String firstLine(Socket socket) {
        try {
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("no line and no close within the socket timeout", e);
        } catch (IOException e) {
            return null;
        }
    }

    /** A loopback server that writes "hello" to each connection and keeps it open until closed. */
    private static final class Greeter implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> accepted = new CopyOnWriteArrayList<>();

        Greeter() throws IOException {
            Thread thread = new Thread(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket socket = listener.accept();
                        accepted.add(socket);
                        socket.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "greeter");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }
}
