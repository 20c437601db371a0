package io.sdmq.server;

import com.zaxxer.hikari.HikariDataSource;
import io.sdmq.testing.TestServices;
import io.sdmq.testing.TestServices.TestDatabase;

import java.util.Map;

/** A server in this JVM on a fresh database and key prefix, and what it has written there, for "writes nothing". */
record WatchedServer(HikariDataSource rows, String prefix, RunningServer server) implements AutoCloseable {

    /** Starts one with the {@code extra} properties. */
    static WatchedServer start(Map<String, Object> extra) {
        TestDatabase db = TestServices.freshDatabase();
        String prefix = TestServices.freshKeyPrefix();
        return new WatchedServer((HikariDataSource) db.dataSource(), prefix,
                RunningServer.start(db, TestServices.redisUrl(), prefix, extra));
    }

    /** The row counts and Redis keys now. */
    StoreState state() {
        return StoreState.of(rows, prefix);
    }

    /** The row counts and Redis keys once earlier asynchronous writes are done. */
    StoreState settledState() {
        return StoreState.settled(rows, prefix);
    }

    @Override
    public void close() {
        server.close();
        rows.close();
    }
}
