package io.sdmq.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sdmq.client.Delivered;
import io.sdmq.client.SdmqClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Which beans the auto-configuration makes, and when it steps aside; no server needed. */
class SdmqAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SdmqAutoConfiguration.class, SdmqMetricsAutoConfiguration.class,
                    SdmqHealthAutoConfiguration.class))
            .withPropertyValues("sdmq.client.base-url=http://127.0.0.1:1");

    @Test
    void the_client_template_and_listener_containers_are_made_from_the_properties() {
        runner.withPropertyValues("sdmq.client.listener.concurrency=3", "sdmq.client.producer.max-batch=50")
                .run(context -> {
                    assertThat(context).hasSingleBean(SdmqClient.class).hasSingleBean(SdmqTemplate.class)
                            .hasSingleBean(SdmqListenerContainerFactory.class)
                            .hasSingleBean(SdmqListenerContainers.class);
                    assertThat(context.getBean(SdmqClient.class).baseUri()).isEqualTo(URI.create("http://127.0.0.1:1"));
                    SdmqClientProperties properties = context.getBean(SdmqClientProperties.class);
                    assertThat(properties.listener().concurrency()).isEqualTo(3);
                    assertThat(properties.listener().pollTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(properties.producer().maxBatch()).isEqualTo(50);
                    assertThat(properties.maxRetries()).isNull();
                });
    }

    @Test
    void a_client_template_and_container_factory_of_the_application_win() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).getBean(SdmqClient.class).isSameAs(context.getBean("ownClient"));
            assertThat(context).getBean(SdmqTemplate.class).isSameAs(context.getBean("ownTemplate"));
            assertThat(context).getBean(SdmqListenerContainerFactory.class).isSameAs(context.getBean("ownFactory"));
            assertThat(context.getBean(SdmqHealthIndicator.class).health().getDetails().get("server"))
                    .isEqualTo("http://127.0.0.1:2/actuator/health");
        });
    }

    @Test
    void the_listener_meters_are_made_only_when_the_application_has_a_meter_registry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ListenerObserver.class)
                .doesNotHaveBean(MeterRegistry.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context ->
                assertThat(context).getBean(ListenerObserver.class).isInstanceOf(MicrometerListenerObserver.class));
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(ListenerObserver.class));
    }

    @Test
    void the_health_indicator_is_made_only_with_health_support_and_unless_disabled() {
        runner.run(context -> assertThat(context).hasSingleBean(SdmqHealthIndicator.class));
        runner.withPropertyValues("management.health.sdmq.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SdmqHealthIndicator.class));
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SdmqHealthIndicator.class));
    }

    @Test
    void the_health_indicator_reports_down_when_nothing_answers() {
        runner.run(context -> assertThat(context.getBean(SdmqHealthIndicator.class).health().getStatus().getCode())
                .isEqualTo("DOWN"));
    }

    @Test
    void a_bad_listener_property_fails_the_start_naming_the_property_and_the_rule() {
        runner.withPropertyValues("sdmq.client.listener.count=0").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("sdmq.client.listener.count: must be 1..100"));
        runner.withPropertyValues("sdmq.client.listener.linger=-1ms").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("sdmq.client.listener.linger: must be"));
    }

    @Test
    void a_listener_method_of_a_wrong_shape_or_concurrency_fails_the_start_naming_it() {
        runner.withBean("twoArguments", TwoArguments.class).run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("twoArguments.on")
                .hasMessageContaining("must take one argument"));
        runner.withBean("badConcurrency", BadConcurrency.class).run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("badConcurrency.on")
                .hasMessageContaining("concurrency must be a whole number of at least 1, was 'none'"));
    }

    @Test
    void each_listener_method_gets_a_container_with_its_topic_and_the_default_concurrency_unless_it_names_one() {
        runner.withPropertyValues("sdmq.client.listener.concurrency=3", "sdmq.client.listener.error-backoff=10s",
                        "orders.threads=2")
                .withBean("twoListeners", TwoListeners.class).run(context -> {
                    assertThat(context.getBean(SdmqListenerContainers.class).containers())
                            .extracting(c -> c.endpoint().topic(), c -> c.endpoint().concurrency())
                            .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("orders", 2),
                                    org.assertj.core.groups.Tuple.tuple("mails", 3));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean
        SdmqClient ownClient() {
            return SdmqClient.builder(URI.create("http://127.0.0.1:2")).build();
        }

        @Bean
        SdmqTemplate ownTemplate(SdmqClient client) {
            return new SdmqTemplate(client, tools.jackson.databind.json.JsonMapper.builder().build());
        }

        @Bean
        SdmqListenerContainerFactory ownFactory(SdmqClient client, SdmqClientProperties properties) {
            return new SdmqListenerContainerFactory(client, properties.listener(), ListenerObserver.NONE);
        }
    }

    static class TwoArguments {
        @SdmqListener(topic = "orders")
        public void on(Delivered message, String extra) {
        }
    }

    static class BadConcurrency {
        @SdmqListener(topic = "orders", concurrency = "none")
        public void on(Delivered message) {
        }
    }

    static class TwoListeners {
        @SdmqListener(topic = "orders", concurrency = "${orders.threads}")
        public void orders(Delivered message) {
        }

        @SdmqListener(topic = "mails")
        public void mails(String body) {
        }
    }
}
