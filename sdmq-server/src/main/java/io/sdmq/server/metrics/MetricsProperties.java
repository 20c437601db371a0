package io.sdmq.server.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The per-topic metrics, under {@code sdmq.metrics.*}.
 *
 * @param maxTopics most topics that get a {@code topic} tag of their own; the ones seen after them are tagged
 *                  {@code other}, so a producer inventing topic names cannot blow up the metrics (100)
 * @param refresh   how often the gauges of messages per topic and status are read from MySQL (15s); after a read
 *                  that took t, not before 20 × t
 */
@ConfigurationProperties("sdmq.metrics")
public record MetricsProperties(@DefaultValue("100") int maxTopics, @DefaultValue("15s") Duration refresh) {
    public MetricsProperties {
        if (maxTopics < 0) {
            throw new IllegalArgumentException("sdmq.metrics.max-topics: must be 0 or more, not " + maxTopics);
        }
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("sdmq.metrics.refresh: must be positive, not " + refresh);
        }
    }
}
