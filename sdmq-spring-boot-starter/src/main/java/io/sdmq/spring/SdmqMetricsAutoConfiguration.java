package io.sdmq.spring;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The listener meters, when the application has Micrometer and a {@link MeterRegistry}; comes after Boot's metrics
 * auto-configuration, which makes the registry, and before the listeners', which take the observer.
 */
@AutoConfiguration(before = SdmqAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public class SdmqMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public ListenerObserver sdmqListenerObserver(MeterRegistry registry) {
        return new MicrometerListenerObserver(registry);
    }
}
