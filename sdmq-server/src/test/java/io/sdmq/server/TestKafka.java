package io.sdmq.server;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Kafka broker for tests: the one {@code SDMQ_TEST_KAFKA_BOOTSTRAP} names, or else a single-node KRaft broker
 * (broker and controller in one) run as a child JVM from this test classpath ({@code kafka.Kafka}), bound to
 * 127.0.0.1 on free ports, its data and log under {@code target/}. An own broker can be stopped (killed, as in a
 * crash) and started again on the same ports with the same data.
 */
final class TestKafka implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final String bootstrap;
    private final Path dir;
    private Process process;

    private TestKafka(String bootstrap, Path dir) {
        this.bootstrap = bootstrap;
        this.dir = dir;
    }

    /** The broker {@code SDMQ_TEST_KAFKA_BOOTSTRAP} names when set, else an own one ({@link #startOwn()}). */
    static TestKafka start() {
        String given = System.getenv("SDMQ_TEST_KAFKA_BOOTSTRAP");
        return given == null || given.isBlank() ? startOwn() : new TestKafka(given.trim(), null);
    }

    /** A broker of this test's own, formatted anew and started; waits until it answers. */
    static TestKafka startOwn() {
        try {
            Path dir = Files.createDirectories(Path.of("target", "kafka",
                    "broker-" + ThreadLocalRandom.current().nextInt(1_000_000))).toAbsolutePath();
            int port = freePort();
            int controllerPort = freePort();
            Files.writeString(dir.resolve("server.properties"), serverProperties(dir, port, controllerPort));
            Files.writeString(dir.resolve("logback.xml"), "<configuration><appender name=\"out\" class=\""
                    + "ch.qos.logback.core.ConsoleAppender\"><encoder><pattern>%d %-5level %logger{30} - %msg%n"
                    + "</pattern></encoder></appender><root level=\"WARN\"><appender-ref ref=\"out\"/></root>"
                    + "</configuration>");
            Process format = java(dir, "format.log", "kafka.tools.StorageTool", "format", "-t",
                    Uuid.randomUuid().toString(), "-c", dir.resolve("server.properties").toString());
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                throw new IllegalStateException("formatting the Kafka storage failed: "
                        + Files.readString(dir.resolve("format.log")));
            }
            TestKafka kafka = new TestKafka("127.0.0.1:" + port, dir);
            kafka.startAgain();
            return kafka;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private int port() {
        return Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
    }

    /** {@code host:port} for clients. */
    String bootstrap() {
        return bootstrap;
    }

    /** Whether this broker is the test's own, one it can stop and start. */
    boolean own() {
        return dir != null;
    }

    /** Kills the broker at once, as in a crash: its port refuses connections until {@link #startAgain()}. */
    synchronized void stop() {
        requireOwn();
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** Starts the broker on its ports with its data (after a stop, or the first time); waits until it answers. */
    synchronized void startAgain() {
        requireOwn();
        if (process != null) {
            return;
        }
        try {
            process = java(dir, "broker.log", "kafka.Kafka", dir.resolve("server.properties").toString());
            long deadline = System.nanoTime() + STARTUP.toNanos();
            while (!answers()) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the test Kafka broker did not start: "
                            + Files.readString(dir.resolve("broker.log")));
                }
                Thread.sleep(200);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates a topic with {@code partitions} partitions and topic configs {@code config}; waits until it exists. */
    void createTopic(String topic, int partitions, Map<String, String> config) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(config))).all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not create Kafka topic " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 1_000);
        } catch (IOException e) {
            return false;
        }
        try (Admin admin = admin()) {
            return !admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5_000, AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200));
    }

    /** Stops an own broker and deletes its data, keeping its log; leaves a broker it does not own alone. */
    @Override
    public void close() {
        if (own()) {
            stop();
            try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void requireOwn() {
        if (!own()) {
            throw new IllegalStateException("the broker at " + bootstrap + " is not this test's own");
        }
    }

    private static String serverProperties(Path dir, int port, int controllerPort) {
        return String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "auto.create.topics.enable=false",
                "num.partitions=1",
                "num.network.threads=2",
                "num.io.threads=2",
                "background.threads=2",
                "offsets.topic.num.partitions=1",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "");
    }

    /** A child JVM running {@code mainClass} from this test classpath, its output in {@code dir/logName}. */
    private static Process java(Path dir, String logName, String mainClass, String... args) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true", "-Dlogback.configurationFile=" + dir.resolve("logback.xml"),
                "-cp", classPath, mainClass));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(logName).toFile())).start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        return process;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
