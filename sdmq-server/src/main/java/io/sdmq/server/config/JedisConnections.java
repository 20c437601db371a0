package io.sdmq.server.config;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * Redis connections borrowed from a pool of classic Jedis connections, not through Jedis 7's {@code RedisClient}
 * ("unified" mode, spring-data-redis's default when that class is present). In unified mode spring-data-redis
 * 4.1 closes every connection by asking it for its transaction, which throws and catches an
 * {@code IllegalStateException}, stack trace and all, after every Redis call: 4.5 % of the server's CPU in a W3
 * profile (BENCHMARKS.md, 2026-11-25 13:00). The pool is the same commons-pool2 pool, sized by
 * {@code spring.data.redis.jedis.pool.*}.
 */
@Configuration(proxyBeanMethods = false)
class JedisConnections {

    @Bean
    static BeanPostProcessor classicJedisConnections() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof JedisConnectionFactory factory) {
                    factory.setUseUnifiedJedis(false);
                }
                return bean;
            }
        };
    }
}
