package io.sdmq.core.redis;

import io.sdmq.testing.TestRedisCluster;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The worker id lease's tests again on a Redis Cluster, where its keys spread over the nodes. */
class RedisClusterWorkerIdLeaseIT extends RedisWorkerIdLeaseIT {

    @Override
    StringRedisTemplate template() {
        return TestRedisCluster.template();
    }
}
