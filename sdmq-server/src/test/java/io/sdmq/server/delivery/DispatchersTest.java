package io.sdmq.server.delivery;

import io.sdmq.core.EngineSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DispatchersTest {

    @Test
    void a_delivery_batch_above_what_one_pop_may_take_fails_the_start_naming_both_properties() {
        DeliveryProperties properties = new DeliveryProperties(500, Duration.ofSeconds(1), Duration.ofSeconds(30),
                new DeliveryProperties.Webhook(List.of()));
        EngineSettings engine = EngineSettings.builder().maxPopCount(100).build();

        assertThatThrownBy(() -> new Dispatchers(null, null, null, properties, engine, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sdmq.delivery.batch: must be at most sdmq.consumer.max-count (100), since a dispatcher "
                        + "pops as a consumer does; not 500");
    }
}
