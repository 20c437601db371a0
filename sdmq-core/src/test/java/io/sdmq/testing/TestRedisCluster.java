package io.sdmq.testing;

import io.sdmq.embedded.EmbeddedRedis;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster for tests: the nodes named in {@code SDMQ_TEST_REDIS_CLUSTER_NODES} ({@code host:port,...}) when
 * it is set, otherwise three masters started on loopback from the embedded-redis binary, the 16 384 slots split
 * evenly between them. Tests isolate themselves by key prefix, as on a single Redis.
 */
public final class TestRedisCluster {
    private static final Logger log = LoggerFactory.getLogger(TestRedisCluster.class);
    private static final int MASTERS = 3;
    private static final int SLOTS = 16_384;
    /** Redis 6 talks to the other nodes on its port plus this; both must be free. */
    private static final int BUS_OFFSET = 10_000;
    private static final Duration FORM_TIMEOUT = Duration.ofSeconds(20);

    private static List<String> nodes;
    private static StringRedisTemplate template;

    private TestRedisCluster() {
    }

    /** The cluster's masters as {@code host:port}. */
    public static synchronized List<String> nodes() {
        if (nodes == null) {
            String configured = System.getenv("SDMQ_TEST_REDIS_CLUSTER_NODES");
            nodes = configured != null ? List.of(configured.split(",")) : startEmbedded();
            log.info("tests use the Redis Cluster at {}", nodes);
        }
        return nodes;
    }

    /** A template on a cluster connection, pooled classic Jedis as the server builds it. */
    public static synchronized StringRedisTemplate template() {
        if (template == null) {
            JedisConnectionFactory factory = TestServices.started(
                    new JedisConnectionFactory(new RedisClusterConfiguration(nodes()), TestServices.pooledClient()));
            template = new StringRedisTemplate(factory);
        }
        return template;
    }

    /** Runs {@code work} on a connection of its own to one node ({@code host:port}), as a test looks at its keys. */
    public static <T> T onNode(String node, Function<Jedis, T> work) {
        int colon = node.lastIndexOf(':');
        try (Jedis jedis = new Jedis(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)))) {
            return work.apply(jedis);
        }
    }

    private static List<String> startEmbedded() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < MASTERS; i++) {
            int port = portWithFreeBus();
            EmbeddedRedis node = EmbeddedRedis.start(TestServices.scratch("redis-cluster"), port, false,
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf");
            Runtime.getRuntime().addShutdownHook(new Thread(node::close));
            ports.add(port);
        }
        for (int i = 0; i < MASTERS; i++) {
            try (Jedis jedis = new Jedis("127.0.0.1", ports.get(i))) {
                jedis.clusterAddSlots(IntStream.range(i * SLOTS / MASTERS, (i + 1) * SLOTS / MASTERS).toArray());
                if (i > 0) {
                    jedis.clusterMeet("127.0.0.1", ports.get(0));
                }
            }
        }
        awaitFormed(ports);
        return ports.stream().map(port -> "127.0.0.1:" + port).toList();
    }

    /** Waits until every node sees all slots served and all masters known. */
    private static void awaitFormed(List<Integer> ports) {
        await().alias("the test Redis Cluster on " + ports + " forms").atMost(FORM_TIMEOUT)
                .pollInterval(Duration.ofMillis(50)).until(() -> ports.stream().allMatch(TestRedisCluster::sawFormed));
    }

    private static boolean sawFormed(int port) {
        String info = onNode("127.0.0.1:" + port, Jedis::clusterInfo);
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + MASTERS);
    }

    private static int portWithFreeBus() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 50_000);
            if (free(port) && free(port + BUS_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("found no free loopback port with a free cluster bus port");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }
}
