package io.sdmq.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.sdmq.embedded.EmbeddedMariaDb;
import io.sdmq.embedded.EmbeddedRedis;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import redis.clients.jedis.JedisPoolConfig;

import javax.sql.DataSource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Finds Redis and MariaDB/MySQL for tests, in this order: {@code SDMQ_TEST_REDIS_URL} / {@code SDMQ_TEST_JDBC_URL}
 * (+ {@code _USER}, {@code _PASSWORD}) from the environment; Testcontainers when a Docker engine answers; embedded
 * servers otherwise. Every test isolates itself with a fresh database and a fresh Redis key prefix.
 */
public final class TestServices {
    private static final Logger log = LoggerFactory.getLogger(TestServices.class);
    private static final String DB_PARAMS = "?connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
            + "&allowPublicKeyRetrieval=true&useSSL=false&useLocalSessionState=true"
            + "&allowMultiQueries=true&useLocalTransactionState=true";
    private static final List<String> createdDatabases = new CopyOnWriteArrayList<>();
    private static final Set<String> issuedPrefixes = ConcurrentHashMap.newKeySet();

    private static String redisUrl;
    private static String[] jdbcServer;
    private static JedisConnectionFactory redisFactory;
    private static StringRedisTemplate redisTemplate;

    private TestServices() {
    }

    /** A JDBC URL, with its user and password. */
    public record TestDatabase(String jdbcUrl, String user, String password) {
        /**
         * A pool of its own, which the caller closes. One left open gives its connections back once idle (no idle
         * minimum), so that the tests of one JVM stay under MariaDB's 151 connections.
         */
        public DataSource dataSource() {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(jdbcUrl);
            config.setUsername(user);
            config.setPassword(password);
            config.setMaximumPoolSize(8);
            config.setMinimumIdle(0);
            config.setIdleTimeout(10_000);
            return new HikariDataSource(config);
        }

        /** A connection of its own, for a test's query; the caller closes it. */
        public Connection connection() throws SQLException {
            return DriverManager.getConnection(jdbcUrl, user, password);
        }
    }

    public static synchronized String redisUrl() {
        if (redisUrl == null) {
            redisUrl = System.getenv("SDMQ_TEST_REDIS_URL");
            if (redisUrl == null && dockerAnswers()) {
                GenericContainer<?> redis = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
                redis.start();
                redisUrl = "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
            } else if (redisUrl == null) {
                EmbeddedRedis redis = EmbeddedRedis.start(scratch("redis"), 0, false);
                Runtime.getRuntime().addShutdownHook(new Thread(redis::close));
                redisUrl = redis.url();
            }
            log.info("tests use Redis at {}", redisUrl);
        }
        return redisUrl;
    }

    /** A key prefix no other test uses; its keys are deleted when the JVM exits. */
    public static String freshKeyPrefix() {
        String prefix = "t" + UUID.randomUUID().toString().substring(0, 12);
        if (issuedPrefixes.isEmpty()) {
            synchronized (issuedPrefixes) {
                if (issuedPrefixes.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(TestServices::deleteIssuedKeys));
                }
            }
        }
        issuedPrefixes.add(prefix);
        return prefix;
    }

    /**
     * One scan of the keys starting with "t"; deletes those under a prefix this JVM issued, and only those. Nothing
     * when this JVM never looked the single Redis up (its tests ran on the cluster): finding it now could start an
     * embedded one while the JVM exits, too late to register the hook that stops it.
     */
    private static void deleteIssuedKeys() {
        synchronized (TestServices.class) {
            if (redisUrl == null) {
                return;
            }
        }
        try {
            StringRedisTemplate redis = redisTemplate();
            List<String> ours = new ArrayList<>();
            try (Cursor<String> keys = redis.scan(ScanOptions.scanOptions().match("t*").count(1_000).build())) {
                keys.forEachRemaining(key -> {
                    int end = key.indexOf(':');
                    if (end > 0 && issuedPrefixes.contains(key.substring(0, end))) {
                        ours.add(key);
                    }
                });
            }
            for (int from = 0; from < ours.size(); from += 500) {
                redis.delete(ours.subList(from, Math.min(ours.size(), from + 500)));
            }
        } catch (RuntimeException e) {
            log.debug("could not delete the test keys at exit: {}", e.toString());
        }
    }

    public static synchronized RedisConnectionFactory redisConnectionFactory() {
        if (redisFactory == null) {
            URI url = URI.create(redisUrl());
            RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(url.getHost(), url.getPort());
            if (url.getUserInfo() != null) {
                server.setPassword(url.getUserInfo().substring(url.getUserInfo().indexOf(':') + 1));
            }
            redisFactory = jedisFactory(server);
        }
        return redisFactory;
    }

    /**
     * A started connection factory to the given Redis, built as the server builds its own: pooled classic Jedis
     * connections (sdmq-server's {@code JedisConnections}), so test threads never share a connection.
     */
    public static JedisConnectionFactory jedisFactory(RedisStandaloneConfiguration server) {
        return started(new JedisConnectionFactory(server, pooledClient()));
    }

    static JedisClientConfiguration pooledClient() {
        JedisPoolConfig pool = new JedisPoolConfig();
        pool.setMaxTotal(64);
        pool.setMaxIdle(64);
        return JedisClientConfiguration.builder().usePooling().poolConfig(pool).build();
    }

    static JedisConnectionFactory started(JedisConnectionFactory factory) {
        factory.setUseUnifiedJedis(false);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    public static synchronized StringRedisTemplate redisTemplate() {
        if (redisTemplate == null) {
            redisTemplate = new StringRedisTemplate(redisConnectionFactory());
        }
        return redisTemplate;
    }

    /** A new empty database migrated by Flyway; dropped when the JVM exits. */
    public static TestDatabase freshDatabase() {
        String[] server = jdbcServer();
        String name = "sdmq_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        execute(server, "CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        createdDatabases.add(name);
        TestDatabase db = new TestDatabase(server[0] + name + DB_PARAMS, server[1], server[2]);
        HikariDataSource migrator = (HikariDataSource) db.dataSource();
        try (migrator) {
            Flyway.configure().dataSource(migrator).locations("classpath:db/migration").load().migrate();
        }
        return db;
    }

    /** The MariaDB/MySQL server the tests use: its JDBC URL ends in "/", with no database after it. */
    public static TestDatabase server() {
        String[] server = jdbcServer();
        return new TestDatabase(server[0], server[1], server[2]);
    }

    private static synchronized String[] jdbcServer() {
        if (jdbcServer == null) {
            String url = System.getenv("SDMQ_TEST_JDBC_URL");
            if (url != null) {
                jdbcServer = new String[] {url.endsWith("/") ? url : url + "/", env("SDMQ_TEST_JDBC_USER", "root"),
                        env("SDMQ_TEST_JDBC_PASSWORD", "")};
            } else if (dockerAnswers()) {
                MariaDBContainer db = new MariaDBContainer("mariadb:11.4").withUsername("root").withPassword("sdmq");
                db.start();
                jdbcServer = new String[] {"jdbc:mysql://" + db.getHost() + ":" + db.getMappedPort(3306) + "/",
                        "root", "sdmq"};
            } else {
                EmbeddedMariaDb db = EmbeddedMariaDb.start(scratch("mariadb"), 0);
                Runtime.getRuntime().addShutdownHook(new Thread(db::close));
                jdbcServer = new String[] {db.serverUrl(), "root", ""};
            }
            Runtime.getRuntime().addShutdownHook(new Thread(TestServices::dropCreatedDatabases));
            log.info("tests use MariaDB/MySQL at {}", jdbcServer[0]);
        }
        return jdbcServer;
    }

    private static void dropCreatedDatabases() {
        for (String name : createdDatabases) {
            try {
                execute(jdbcServer, "DROP DATABASE IF EXISTS " + name);
            } catch (IllegalStateException e) {
                log.warn("could not drop test database {}: {}", name, e.getMessage());
            }
        }
    }

    private static void execute(String[] server, String sql) {
        try (Connection c = DriverManager.getConnection(server[0] + DB_PARAMS, server[1], server[2]);
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run '" + sql + "' on " + server[0], e);
        }
    }

    private static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    static Path scratch(String name) {
        try {
            return Files.createTempDirectory("sdmq-test-" + name);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no temp directory", e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
