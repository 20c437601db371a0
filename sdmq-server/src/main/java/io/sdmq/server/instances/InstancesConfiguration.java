package io.sdmq.server.instances;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.engine.Engine;
import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.delivery.Dispatchers;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;

/** The instances' entries in Redis and this instance's heartbeat. */
@Configuration(proxyBeanMethods = false)
class InstancesConfiguration {

    @Bean
    InstanceRegistry instanceRegistry(StringRedisTemplate redis, SdmqProperties sdmq, InstancesProperties properties) {
        return new InstanceRegistry(redis, sdmq.keyPrefix(), properties);
    }

    /** The version comes from the jar's {@code META-INF/build-info.properties} (the build-info goal). */
    @Bean
    InstanceHeartbeat instanceHeartbeat(InstanceRegistry registry, EngineSettings settings, Engine engine,
                                        Dispatchers dispatchers, Clock clock, InstancesProperties properties,
                                        ObjectProvider<BuildProperties> build) {
        BuildProperties info = build.getIfAvailable();
        String version = info == null || info.getVersion() == null ? "unknown" : info.getVersion();
        return new InstanceHeartbeat(registry, new InstanceHeartbeat.Identity(settings.host(), hostName(), version),
                engine, dispatchers, clock, properties);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
