package io.sdmq.spring;

import io.sdmq.client.SdmqClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client, the template and the listener containers, bound to {@code sdmq.client.*}. Each bean steps aside for
 * one of the application's own of the same type. Comes after Jackson's auto-configuration, so the template writes
 * objects with the application's {@link JsonMapper}.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@EnableConfigurationProperties(SdmqClientProperties.class)
public class SdmqAutoConfiguration {

    /** Closed with the context, after the listeners stopped: what was pushed is sent first. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SdmqClient sdmqClient(SdmqClientProperties properties) {
        return properties.applyTo(SdmqClient.builder(properties.baseUrl())).build();
    }

    @Bean
    @ConditionalOnMissingBean
    public SdmqTemplate sdmqTemplate(SdmqClient client, ObjectProvider<JsonMapper> json) {
        return new SdmqTemplate(client, json.getIfAvailable(() -> JsonMapper.builder().build()));
    }

    @Bean
    @ConditionalOnMissingBean
    public SdmqListenerContainerFactory sdmqListenerContainerFactory(SdmqClient client,
                                                                     SdmqClientProperties properties,
                                                                     ObjectProvider<ListenerObserver> observer) {
        return new SdmqListenerContainerFactory(client, properties.listener(),
                observer.getIfAvailable(() -> ListenerObserver.NONE));
    }

    /** Static, as a bean post-processor must be, so that it does not make this configuration early. */
    @Bean
    @ConditionalOnMissingBean
    public static SdmqListenerAnnotationProcessor sdmqListenerAnnotationProcessor() {
        return new SdmqListenerAnnotationProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    public SdmqListenerContainers sdmqListenerContainers(SdmqListenerAnnotationProcessor listeners,
                                                         SdmqListenerContainerFactory factory) {
        return new SdmqListenerContainers(listeners, factory);
    }
}
