package io.sdmq.server.embedded;

import io.sdmq.embedded.EmbeddedMariaDb;
import io.sdmq.embedded.EmbeddedRedis;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

import java.nio.file.Path;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Quick start only (Maven profile {@code embedded}): starts Redis and MariaDB from binaries shipped in jars when
 * {@code spring.data.redis.url} (or {@code .host}) and {@code spring.datasource.url} are not set, and points sdmq at
 * them. Their data lives under {@code sdmq.embedded.dir} (default {@code ./sdmq-data}) and survives restarts. They
 * are stopped by Spring Boot's JVM shutdown hook, after the application context has closed.
 *
 * <p>Logs through {@link DeferredLogFactory}: SLF4J output is suppressed until Spring Boot has set logging up, which
 * happens after this runs.
 */
public class EmbeddedServicesPostProcessor implements EnvironmentPostProcessor, Ordered {
    private static final String JDBC_PARAMS = "?connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
            + "&allowPublicKeyRetrieval=true&useSSL=false";
    private static final String RULE = "=".repeat(100);

    private final Log log;

    public EmbeddedServicesPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(EmbeddedServicesPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        boolean redisNeeded = !StringUtils.hasText(env.getProperty("spring.data.redis.url"))
                && !StringUtils.hasText(env.getProperty("spring.data.redis.host"));
        boolean mariaDbNeeded = !StringUtils.hasText(env.getProperty("spring.datasource.url"));
        if (!redisNeeded && !mariaDbNeeded) {
            return;
        }
        Path dir = Path.of(env.getProperty("sdmq.embedded.dir", "./sdmq-data")).toAbsolutePath().normalize();
        Deque<AutoCloseable> started = new ConcurrentLinkedDeque<>();
        SpringApplication.getShutdownHandlers().add(() -> stopAll(started));

        Map<String, Object> props = new LinkedHashMap<>();
        StringBuilder banner = new StringBuilder("\n" + RULE + "\n")
                .append("  sdmq is running on EMBEDDED services, started from binaries shipped in jars:\n");
        if (redisNeeded) {
            Path redisDir = dir.resolve("redis");
            EmbeddedRedis redis = EmbeddedRedis.start(redisDir, env.getProperty("sdmq.embedded.redis-port",
                    Integer.class, 0), true);
            started.push(redis);
            props.put("spring.data.redis.url", redis.url());
            banner.append("    Redis    ").append(redis.url()).append("\n             data in ").append(redisDir)
                    .append('\n');
        }
        if (mariaDbNeeded) {
            Path mariaDbDir = dir.resolve("mariadb");
            EmbeddedMariaDb mariaDb = EmbeddedMariaDb.start(mariaDbDir, env.getProperty("sdmq.embedded.mysql-port",
                    Integer.class, 0));
            started.push(mariaDb);
            mariaDb.createDatabase("sdmq");
            String url = mariaDb.serverUrl() + "sdmq" + JDBC_PARAMS;
            props.put("spring.datasource.url", url);
            props.put("spring.datasource.username", "root");
            props.put("spring.datasource.password", "");
            banner.append("    MariaDB  ").append(mariaDb.serverUrl()).append("sdmq (user root, no password)")
                    .append("\n             data in ").append(mariaDbDir.resolve("data")).append('\n');
        }
        env.getPropertySources().addFirst(new MapPropertySource("sdmq-embedded-services", props));

        if (dir.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize())) {
            banner.append("  ").append(dir).append(" is under java.io.tmpdir: MariaDB's data is DELETED at exit.\n");
        }
        banner.append("  This is for TRYING SDMQ OUT, NOT FOR PRODUCTION. For real servers set "
                        + "spring.data.redis.url and\n")
                .append("  spring.datasource.url (+ username, password), and build without -Pembedded.\n")
                .append(RULE);
        log.warn(banner.toString());
    }

    private static void stopAll(Deque<AutoCloseable> started) {
        for (AutoCloseable service = started.poll(); service != null; service = started.poll()) {
            try {
                service.close();
            } catch (Exception e) {
                // the JVM is exiting; report and go on stopping the others
                System.err.println("sdmq: could not stop an embedded service: " + e);
            }
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
