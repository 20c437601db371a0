package io.sdmq.server.instances;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The instances' entries in Redis, under {@code sdmq.instances.*}.
 *
 * @param refresh how often each instance writes its entry; an entry not written again for three of these is gone,
 *                and one not written for two reads as down (5s)
 */
@ConfigurationProperties("sdmq.instances")
public record InstancesProperties(@DefaultValue("5s") Duration refresh) {
    public InstancesProperties {
        if (refresh.isNegative() || refresh.toMillis() < 100) {
            throw new IllegalArgumentException("sdmq.instances.refresh: must be 100ms or more, not " + refresh);
        }
    }

    /** How long an entry lives in Redis without being written again. */
    Duration ttl() {
        return refresh.multipliedBy(3);
    }
}
