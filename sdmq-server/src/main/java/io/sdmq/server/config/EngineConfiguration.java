package io.sdmq.server.config;

import io.sdmq.common.IdGenerator;
import io.sdmq.common.PushRules;
import io.sdmq.common.SnowflakeIdGenerator;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.engine.Engine;
import io.sdmq.core.mysql.MessageMapper;
import io.sdmq.core.mysql.MySqlMessageLog;
import io.sdmq.core.redis.RedisReadySignal;
import io.sdmq.core.redis.RedisScheduleStore;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.ReadySignal;
import io.sdmq.core.spi.ScheduleStore;
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
import java.time.Duration;
import java.util.List;

/** Builds the engine from its ports; the engine itself knows nothing of Spring. */
@Configuration(proxyBeanMethods = false)
class EngineConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ScheduleStore scheduleStore(StringRedisTemplate redis, SdmqProperties properties) {
        return new RedisScheduleStore(redis, properties.keyPrefix(), properties.buckets(), retryDelays(properties));
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

    /** {@code sdmq.journal.pending}: the MySQL writes queued and not yet committed (back-pressure at capacity). */
    @Bean
    MeterBinder journalMetrics(Engine engine) {
        return registry -> Gauge.builder("sdmq.journal.pending", engine, Engine::pendingJournalWrites)
                .description("MySQL writes queued and not yet committed").register(registry);
    }

    @Bean(destroyMethod = "")
    Engine engine(SdmqProperties properties, ScheduleStore store, MessageLog messageLog, ReadySignal signal,
                  IdGenerator ids, Clock clock, InstanceName instance) {
        return new Engine(settings(properties, instance.name()), store, messageLog, signal, ids, clock);
    }

    static EngineSettings settings(SdmqProperties p, String host) {
        PushRules rules = new PushRules(p.maxDelay().toMillis(), (int) p.maxBodySize().toBytes(),
                p.defaultTtr().toMillis(), p.retry().maxAttempts(), retryDelays(p));
        return new EngineSettings(rules, host, p.scheduler().moveBatch(), p.scheduler().maxSleep(),
                p.scheduler().coldAfter(),
                p.journal().capacity(), p.journal().backgroundCapacity(), p.journal().batch(),
                p.journal().writeTimeout(), p.journal().linger(), p.consumer().maxCount(), p.consumer().maxWait(),
                p.consumer().maxWaitingPerTopic(), p.consumer().readySweep(),
                recovery(p.recovery()));
    }

    private static RecoverySettings recovery(SdmqProperties.Recovery r) {
        return new RecoverySettings(r.autoRestore(), r.reconcileInterval(), r.waitPutAge(), r.grace(), r.retention(),
                r.purgeBatch(), r.restorePage());
    }

    private static List<Long> retryDelays(SdmqProperties p) {
        return p.retry().delays().stream().map(Duration::toMillis).toList();
    }

    /** This instance's name in the transition log and in Redis leases. */
    record InstanceName(String name) {
    }
}
