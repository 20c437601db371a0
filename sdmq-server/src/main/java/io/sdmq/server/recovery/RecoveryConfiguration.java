package io.sdmq.server.recovery;

import io.sdmq.core.Admin;
import io.sdmq.core.EngineSettings;
import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.instances.InstanceRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Clock;

/** Whole restores and their progress shared through Redis. */
@Configuration(proxyBeanMethods = false)
class RecoveryConfiguration {

    @Bean
    Restores restores(Admin admin, StringRedisTemplate redis, SdmqProperties sdmq, InstanceRegistry instances,
                      EngineSettings settings, Clock clock) {
        return new Restores(admin, new RestoreProgressBoard(redis, sdmq.keyPrefix(), instances), settings, clock);
    }
}
