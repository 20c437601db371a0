package io.sdmq.bench;

/**
 * The command-line options the workloads share (see {@link Bench}), read once with their defaults.
 *
 * @param idleMs     --drain in ms: give up once nothing arrived for this long past the last due time
 * @param maxDrainMs --max-drain in ms
 * @param serverDb   the server's database, to read its status log; empty for none
 * @param pushAsync  --push async: unpaced producers of one message per call push without waiting for the answer
 * @param url        --url, the sdmq server
 * @param topicSettings --topic-settings N: topics given settings before a delivery run, its own among them
 * @param sink       --sink webhook|rabbitmq: the run's topic delivers to a receiver in this process (W8); empty for
 *                   consumers that poll
 * @param rabbitUrl  --rabbitmq, the broker a rabbitmq sink's receiver consumes from (the server's own)
 * @param delayScale --delay-scale F: W1, W2, W3 and W5's delays times F (default 1, the workloads' own; the tests
 *                   make them shorter so that a run takes seconds, not ten)
 */
record WorkloadOptions(int producers, int consumers, int inflight, long idleMs, long maxDrainMs, String redisUrl,
                       String prefix, String serverDb, String dbUser, String dbPassword, boolean pushAsync,
                       String url, int topicSettings, String sink, String rabbitUrl, double delayScale) {

    static WorkloadOptions of(Options options) {
        return new WorkloadOptions(options.integer("producers", 4), options.integer("consumers", 4),
                options.integer("inflight", 256), options.integer("drain", 30) * 1_000L,
                options.integer("max-drain", 600) * 1_000L, options.text("redis", "redis://127.0.0.1:6379"),
                options.text("prefix", "sdmq"), options.text("server-db", ""), options.text("db-user", "root"),
                options.text("db-password", ""), pushAsync(options.text("push", "sync")),
                options.text("url", "http://127.0.0.1:8080"), options.integer("topic-settings", 0),
                options.text("sink", ""), options.text("rabbitmq", "amqp://guest:guest@127.0.0.1:5672"),
                delayScale(options.text("delay-scale", "1")));
    }

    private static double delayScale(String text) {
        double scale = Double.parseDouble(text);
        if (!(scale > 0 && scale <= 1)) {
            throw new IllegalArgumentException("--delay-scale: more than 0 and at most 1, not " + text);
        }
        return scale;
    }

    private static boolean pushAsync(String push) {
        return switch (push) {
            case "sync" -> false;
            case "async" -> true;
            default -> throw new IllegalArgumentException("--push: sync or async, not " + push);
        };
    }
}
