package io.sdmq.bench;

import java.sql.SQLException;

/**
 * The delay queues the benchmark issue compares sdmq with, driven through {@link Target} by the same W1 and W3 code,
 * in the bench's own JVM (they are libraries, not servers) on the same Redis or MariaDB as sdmq.
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
                    options.text("db-user", "root"), options.text("db-password", ""), options.integer("consumers", 4));
            default -> throw new IllegalArgumentException("unknown peer " + peer + "; redisson, db-scheduler");
        };
    }

    /** A peer's message as a consumer got it: the body is all it carries, so its id and due time come from it. */
    static Target.Delivered delivered(String body) {
        return new Target.Delivered(Integer.toString(Messages.seqOf(body)), body, Messages.dueOf(body));
    }
}
