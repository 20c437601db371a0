package io.sdmq.server;

import org.apache.qpid.server.SystemLauncher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Finds an AMQP 0-9-1 broker for tests: {@code SDMQ_TEST_RABBITMQ_URL} (e.g. {@code amqp://guest:guest@127.0.0.1:5672})
 * when set, else an Apache Qpid Broker-J with an in-memory store started in this JVM on a loopback port, so that the
 * build passes on a machine with only a JDK. Tests isolate themselves by fresh exchange and queue names.
 */
final class TestRabbit {
    private static final Logger log = LoggerFactory.getLogger(TestRabbit.class);

    private static URI url;
    private static boolean embedded;

    private TestRabbit() {
    }

    /** The broker's URL: {@code amqp://user:password@host:port}. */
    static synchronized URI url() {
        if (url == null) {
            String given = System.getenv("SDMQ_TEST_RABBITMQ_URL");
            embedded = given == null;
            url = URI.create(given != null ? given : startQpid());
            log.info("tests use the AMQP broker at {}:{}", url.getHost(), url.getPort());
        }
        return url;
    }

    /**
     * Whether the broker is the embedded Qpid, which answers an unroutable mandatory message with a nack before its
     * return, where RabbitMQ sends the return and then an ack.
     */
    static synchronized boolean embedded() {
        url();
        return embedded;
    }

    /** The server properties that point its RabbitMQ connection at the broker, or at {@code port} on loopback. */
    static Map<String, Object> serverProperties(int port) {
        URI broker = url();
        String[] user = broker.getUserInfo().split(":", 2);
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("spring.rabbitmq.host", broker.getHost());
        props.put("spring.rabbitmq.port", port);
        props.put("spring.rabbitmq.username", user[0]);
        props.put("spring.rabbitmq.password", user[1]);
        return props;
    }

    static Map<String, Object> serverProperties() {
        return serverProperties(url().getPort());
    }

    /** A connection factory of the test's own, for declaring, consuming and deleting; the caller destroys it. */
    static CachingConnectionFactory connectionFactory() {
        URI broker = url();
        String[] user = broker.getUserInfo().split(":", 2);
        CachingConnectionFactory factory = new CachingConnectionFactory(broker.getHost(), broker.getPort());
        factory.setUsername(user[0]);
        factory.setPassword(user[1]);
        return factory;
    }

    private static String startQpid() {
        try {
            int port = freePort();
            Path work = Files.createTempDirectory("sdmq-test-qpid");
            Path config = work.resolve("config.json");
            Files.writeString(config, qpidConfig(port));
            Map<String, Object> attributes = new LinkedHashMap<>();
            attributes.put("type", "Memory");
            attributes.put("initialConfigurationLocation", config.toUri().toString());
            attributes.put("startupLoggedToSystemOut", false);
            attributes.put("context", Map.of("qpid.work_dir", work.toString(), "QPID_WORK", work.toString()));
            SystemLauncher qpid = new SystemLauncher();
            qpid.startup(attributes);
            Runtime.getRuntime().addShutdownHook(new Thread(qpid::shutdown));
            return "amqp://guest:guest@127.0.0.1:" + port;
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded Qpid broker", e);
        }
    }

    /**
     * One AMQP 0-9-1 port on loopback, user guest/guest over PLAIN, one in-memory virtual host for any name. An
     * unroutable mandatory message is returned, as RabbitMQ does, not answered by closing the connection (Qpid's
     * default).
     */
    private static String qpidConfig(int port) {
        return """
                {"name": "sdmq-test", "modelVersion": "8.0",
                 "authenticationproviders": [{"name": "plain", "type": "Plain", "secureOnlyMechanisms": [],
                   "users": [{"name": "guest", "type": "managed", "password": "guest"}]}],
                 "ports": [{"name": "AMQP", "port": %d, "bindingAddress": "127.0.0.1",
                   "authenticationProvider": "plain", "protocols": ["AMQP_0_9_1"], "closeWhenNoRoute": false,
                   "virtualhostaliases": [{"name": "nameAlias", "type": "nameAlias"},
                     {"name": "defaultAlias", "type": "defaultAlias"}]}],
                 "virtualhostnodes": [{"name": "default", "type": "Memory", "defaultVirtualHostNode": "true",
                   "virtualHostInitialConfiguration": "{\\"type\\": \\"Memory\\"}"}]}
                """.formatted(port);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
