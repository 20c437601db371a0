package io.sdmq.server.delivery;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * Push delivery, under {@code sdmq.delivery.*}. The brokers' connections are Spring Boot's own properties
 * ({@code spring.rabbitmq.*}, {@code spring.kafka.*}).
 *
 * @param batch        most messages a topic's dispatcher takes in one pop (100); at most
 *                     {@code sdmq.consumer.max-count}
 * @param refresh      how often each instance looks for topics whose delivery changed (1s)
 * @param shutdownWait how long a stopping instance waits for the sends under way before it leaves them to their
 *                     reservations' end (30s)
 * @param webhook      webhook deliveries
 */
@ConfigurationProperties("sdmq.delivery")
public record DeliveryProperties(@DefaultValue("100") int batch, @DefaultValue("1s") Duration refresh,
                                 @DefaultValue("30s") Duration shutdownWait, @DefaultValue Webhook webhook) {
    public DeliveryProperties {
        if (batch < 1 || batch > 1_000) {
            throw new IllegalArgumentException("sdmq.delivery.batch: must be in 1..1000, not " + batch);
        }
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("sdmq.delivery.refresh: must be positive, not " + refresh);
        }
        if (shutdownWait.isNegative()) {
            throw new IllegalArgumentException("sdmq.delivery.shutdown-wait: must be 0 or more, not " + shutdownWait);
        }
    }

    /**
     * @param allowedHosts the hosts a webhook URL may name: exact names or addresses, or {@code *.example.com} for
     *                     its subdomains; empty (the default) refuses every webhook delivery
     */
    public record Webhook(@DefaultValue List<String> allowedHosts) {
    }
}
