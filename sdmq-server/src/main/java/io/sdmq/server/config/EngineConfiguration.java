package io.sdmq.server.config;

import io.sdmq.common.IdGenerator;
import io.sdmq.common.SnowflakeIdGenerator;
import io.sdmq.core.Admin;
import io.sdmq.core.Consumer;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.Producer;
import io.sdmq.core.Topics;
import io.sdmq.core.engine.Engine;
import io.sdmq.core.mysql.MessageMapper;
import io.sdmq.core.mysql.MySqlMessageLog;
import io.sdmq.core.mysql.MySqlTopicStore;
import io.sdmq.core.redis.RedisReadySignal;
import io.sdmq.core.redis.RedisReservations;
import io.sdmq.core.redis.RedisSchedule;
import io.sdmq.core.redis.RedisTopicLimits;
import io.sdmq.core.spi.MessageEvents;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.Reservations;
import io.sdmq.core.spi.TopicLimits;
import io.sdmq.core.spi.TopicStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import javax.sql.DataSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;

/** Builds the engine from its ports; the engine itself knows nothing of Spring. */
@Configuration(proxyBeanMethods = false)
class EngineConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    EngineSettings engineSettings(SdmqProperties properties, InstanceName instance) {
        return properties.engineSettings(instance.name());
    }

    @Bean
    RedisSchedule schedule(StringRedisTemplate redis, SdmqProperties properties, EngineSettings settings) {
        return new RedisSchedule(redis, properties.keyPrefix(), properties.buckets(), settings.coldAfter());
    }

    @Bean
    Reservations reservations(StringRedisTemplate redis, SdmqProperties properties, EngineSettings settings) {
        return new RedisReservations(redis, properties.keyPrefix(), properties.buckets(),
                settings.pushRules().defaultRetryDelays());
    }

    /** The mapper is registered by {@link MyBatisMappers}, over the same DataSource. */
    @Bean
    MessageLog messageLog(MessageMapper mapper, DataSource dataSource, InstanceName instance) {
        return new MySqlMessageLog(mapper, dataSource, instance.name());
    }

    @Bean
    ReadySignal readySignal(RedisConnectionFactory factory, SdmqProperties properties) {
        return new RedisReadySignal(factory, properties.keyPrefix());
    }

    @Bean
    EngineLifecycle engineLifecycle(Engine engine, IdGenerator ids) {
        return new EngineLifecycle(engine, ids);
    }

    @Bean
    AnswerParkedConsumers answerParkedConsumers(Engine engine) {
        return new AnswerParkedConsumers(engine);
    }

    @Bean
    InstanceName instanceName(SdmqProperties properties) {
        if (!properties.host().isBlank()) {
            return new InstanceName(properties.host());
        }
        String pid = Long.toString(ProcessHandle.current().pid());
        try {
            return new InstanceName(InetAddress.getLocalHost().getHostName() + "/" + pid);
        } catch (UnknownHostException e) {
            return new InstanceName("localhost/" + pid);
        }
    }

    @Bean(destroyMethod = "")
    IdGenerator idGenerator(SdmqProperties properties, StringRedisTemplate redis, InstanceName instance) {
        if (properties.workerId() != null) {
            return new SnowflakeIdGenerator(properties.workerId());
        }
        return new LeasedWorkerId(redis, properties.keyPrefix(), instance.name());
    }

    /**
     * {@code sdmq.journal.pending}: the MySQL writes queued for the status log and not yet committed (back-pressure
     * at capacity).
     */
    @Bean
    MeterBinder statusLogMetrics(Engine engine) {
        return registry -> Gauge.builder("sdmq.journal.pending", engine, Engine::pendingWrites)
                .description("MySQL writes queued and not yet committed").register(registry);
    }

    @Bean(destroyMethod = "")
    Engine engine(EngineSettings settings, RedisSchedule schedule, Reservations reservations, MessageLog messageLog,
                  ReadySignal signal, IdGenerator ids, Clock clock, TopicStore topicStore, TopicLimits topicLimits,
                  MessageEvents events) {
        return new Engine(settings, schedule, reservations, schedule, messageLog, signal, ids, clock, topicStore,
                topicLimits, events);
    }

    @Bean
    TopicStore topicStore(DataSource dataSource) {
        return new MySqlTopicStore(dataSource);
    }

    @Bean
    TopicLimits topicLimits(StringRedisTemplate redis, SdmqProperties properties) {
        return new RedisTopicLimits(redis, properties.keyPrefix());
    }

    @Bean
    Producer producer(Engine engine) {
        return engine.producer();
    }

    @Bean
    Consumer consumer(Engine engine) {
        return engine.consumer();
    }

    @Bean
    Admin admin(Engine engine) {
        return engine.admin();
    }

    @Bean
    Topics topics(Engine engine) {
        return engine.topics();
    }

    /** This instance's name in the transition log and in Redis leases. */
    record InstanceName(String name) {
    }
}
