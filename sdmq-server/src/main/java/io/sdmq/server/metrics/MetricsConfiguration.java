package io.sdmq.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.Reservations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;

/** The per-topic metrics: the engine's events as Micrometer meters, and the gauges read from MySQL. */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    TopicTags topicTags(MetricsProperties properties) {
        return new TopicTags(properties.maxTopics());
    }

    @Bean
    MessageEvents messageEvents(MeterRegistry registry, TopicTags tags) {
        return new MicrometerMessageEvents(registry, tags);
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
