package io.sdmq.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.Reservations;
import io.sdmq.server.series.DeliverySeries;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.util.List;

/**
 * The per-topic metrics: the engine's events as Micrometer meters and as the delivery series, and the gauges read
 * from MySQL.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    TopicTags topicTags(MetricsProperties properties) {
        return new TopicTags(properties.maxTopics());
    }

    /** The meters, and the per-minute series of deliveries the dashboard charts (itself a listener, so not primary). */
    @Bean
    @Primary
    MessageEvents messageEvents(MeterRegistry registry, TopicTags tags, DeliverySeries series) {
        return new EveryMessageEvents(List.of(new MicrometerMessageEvents(registry, tags), series));
    }

    @Bean
    TopicQueries topicQueries(JdbcTemplate jdbc) {
        return new TopicQueries(jdbc);
    }

    @Bean
    TopicStats topicStats(TopicQueries queries, Reservations reservations, Clock clock) {
        return new TopicStats(queries, reservations, clock);
    }

    @Bean
    MessageGauges messageGauges(TopicQueries queries, TopicTags tags, MeterRegistry registry, Clock clock,
                                MetricsProperties properties) {
        MessageGauges gauges = new MessageGauges(queries, tags, registry, clock);
        gauges.start(properties.refresh().toMillis());
        return gauges;
    }
}
