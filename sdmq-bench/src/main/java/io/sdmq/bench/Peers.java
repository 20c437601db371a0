package io.sdmq.bench;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The delay queues the benchmark issue compares sdmq with, driven through {@link Target} by the same W1 to W5
 * code, in the bench's own JVM (they are libraries, not servers) on the same Redis or MariaDB as sdmq.
 */
final class Peers {
    private Peers() {
    }

    /** The target named by --peer: redisson or db-scheduler. */
    static Target open(String peer, Options options) throws SQLException {
        return switch (peer) {
            case "redisson" -> new RedissonPeer(options.text("redis", "redis://127.0.0.1:6379"),
                    options.text("prefix", "sdmqbench-peer"));
            case "db-scheduler" -> new DbSchedulerPeer(options.text("jdbc", "jdbc:mariadb://127.0.0.1:3306/"),
                    options.text("peer-db", "sdmq_peer"), options.text("db-user", "root"),
                    options.text("db-password", ""), options.integer("consumers", 4));
            default -> throw new IllegalArgumentException("unknown peer " + peer + "; redisson, db-scheduler");
        };
    }

    /**
     * A peer consumer's poll: waits up to timeoutMs for a first body, then takes what else is there, up to count in
     * all. A body is all a peer's message carries, so its id and due time come from it.
     */
    static List<Target.Delivered> take(BlockingQueue<String> queue, int timeoutMs, int count) throws IOException {
        String first;
        try {
            first = queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while polling");
        }
        List<String> bodies = new ArrayList<>();
        if (first != null) {
            bodies.add(first);
            queue.drainTo(bodies, count - 1);
        }
        return bodies.stream()
                .map(body -> new Target.Delivered(Integer.toString(Messages.seqOf(body)), body, Messages.dueOf(body)))
                .toList();
    }
}
