package io.sdmq.server.series;

import io.sdmq.server.config.SdmqProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Clock;

/** The per-topic series of deliveries: counted by each instance, summed in Redis, read by any. */
@Configuration(proxyBeanMethods = false)
class SeriesConfiguration {

    @Bean
    SeriesStore seriesStore(StringRedisTemplate redis, SdmqProperties properties) {
        return new SeriesStore(redis, properties.keyPrefix());
    }

    @Bean
    DeliverySeries deliverySeries(SeriesStore store, Clock clock) {
        return new DeliverySeries(store, clock);
    }

    @Bean
    TopicSeries topicSeries(SeriesStore store, Clock clock) {
        return new TopicSeries(store, clock);
    }
}
