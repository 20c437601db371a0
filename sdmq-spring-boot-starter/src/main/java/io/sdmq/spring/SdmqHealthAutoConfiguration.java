package io.sdmq.spring;

import io.sdmq.client.SdmqClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@code sdmq} in {@code /actuator/health}, when the application has Boot's health support (the actuator brings it);
 * {@code management.health.sdmq.enabled=false} leaves it out. It checks the server the {@link SdmqClient} bean calls,
 * the application's own when it has one.
 */
@AutoConfiguration(after = SdmqAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("sdmq")
public class SdmqHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "sdmqHealthIndicator")
    public SdmqHealthIndicator sdmqHealthIndicator(SdmqClient client) {
        return new SdmqHealthIndicator(client.baseUri());
    }
}
