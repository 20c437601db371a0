package io.sdmq.server.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.List;

/**
 * sdmq's own settings, under {@code sdmq.*}. Defaults are defined here and nowhere else.
 *
 * @param buckets      number of Redis buckets; fixed for the life of a deployment
 * @param keyPrefix    prefix of every Redis key sdmq writes
 * @param host         this instance's name in the transition log; empty means host name and process id
 * @param workerId     snowflake worker number 0..1023; empty means leased from Redis, so two instances never share one
 * @param defaultTtr   time-to-run of a popped message when the producer gives none
 * @param maxDelay     furthest in the future a message may be due
 * @param maxBodySize  largest message body (UTF-8)
 * @param retry        redelivery policy when the producer gives none
 * @param scheduler    scheduling loop settings
 * @param journal      MySQL writer settings
 * @param consumer     long-poll settings
 * @param recovery     restore, reconcile and retention settings
 * @param auth         bearer tokens of the three roles; none at all leaves the server open
 * @param limits       request rate limits
 */
@ConfigurationProperties("sdmq")
public record SdmqProperties(
        @DefaultValue("16") int buckets,
        @DefaultValue("sdmq") String keyPrefix,
        @DefaultValue("") String host,
        Integer workerId,
        @DefaultValue("30s") Duration defaultTtr,
        @DefaultValue("365d") Duration maxDelay,
        @DefaultValue("64KB") DataSize maxBodySize,
        @DefaultValue Retry retry,
        @DefaultValue Scheduler scheduler,
        @DefaultValue Journal journal,
        @DefaultValue Consumer consumer,
        @DefaultValue Recovery recovery,
        @DefaultValue Auth auth,
        @DefaultValue Limits limits) {

    /**
     * @param maxAttempts deliveries before a message is dead
     * @param delays      backoff before each redelivery; the last one repeats
     */
    public record Retry(@DefaultValue("8") int maxAttempts,
                        @DefaultValue({"0s", "10s", "1m", "5m", "30m", "1h", "2h", "6h"}) List<Duration> delays) {
    }

    /**
     * @param moveBatch most messages one move step takes from a bucket
     * @param maxSleep  longest the scheduler and the reaper sleep without looking at Redis
     * @param coldAfter a message due further ahead is kept in Redis as its id alone, its body only in MySQL, until it
     *                  is due within half of this (0: every message whole in Redis)
     */
    public record Scheduler(@DefaultValue("1000") int moveBatch, @DefaultValue("1s") Duration maxSleep,
                            @DefaultValue("1h") Duration coldAfter) {
    }

    /**
     * @param capacity     pending MySQL writes per writer of pushes and terminal transitions before producers
     *                     get 503 (back-pressure)
     * @param backgroundCapacity pending non-terminal transitions before deliveries wait for the background writer
     * @param batch        most writes folded into one transaction
     * @param writeTimeout how long a request waits for its commit before it answers 503
     * @param linger       how long the background writer gathers non-terminal transitions into one transaction
     */
    public record Journal(@DefaultValue("100000") int capacity, @DefaultValue("500000") int backgroundCapacity,
                          @DefaultValue("1000") int batch, @DefaultValue("5s") Duration writeTimeout,
                          @DefaultValue("60ms") Duration linger) {
    }

    /**
     * @param maxCount   most messages one {@code /get} may take
     * @param maxWait    longest a {@code /get} may wait
     * @param readySweep how often topics with waiting consumers are checked for ready messages
     * @param maxWaitingPerTopic most {@code /get} calls one topic may have waiting on an instance; more answer 429
     * @param blockingWait how long a {@code /get} that has to wait holds its request thread (at most 16 at once)
     *                     before it is parked asynchronously; 0 parks at once
     */
    public record Consumer(@DefaultValue("100") int maxCount, @DefaultValue("60s") Duration maxWait,
                           @DefaultValue("1s") Duration readySweep,
                           @DefaultValue("1000") int maxWaitingPerTopic,
                           @DefaultValue("50ms") Duration blockingWait) {
        public Consumer {
            if (blockingWait.isNegative()) {
                throw new IllegalArgumentException("sdmq.consumer.blocking-wait: must be 0 (off) or more, not "
                        + blockingWait);
            }
        }
    }

    /**
     * @param autoRestore       at start, restore buckets that are empty in Redis from MySQL
     * @param reconcileInterval how often WAIT_PUT and overdue-but-missing messages are put back into Redis
     * @param waitPutAge        how long a message may stay WAIT_PUT before the reconciler schedules it
     * @param grace             how far past due a message must be before the reconciler checks that Redis holds it
     * @param retention         how long terminal messages are kept in MySQL; 0 keeps them forever
     * @param purgeBatch        most messages one retention transaction deletes
     * @param restorePage       messages a restore reads from MySQL and writes to Redis at a time
     */
    public record Recovery(@DefaultValue("true") boolean autoRestore, @DefaultValue("10s") Duration reconcileInterval,
                           @DefaultValue("5s") Duration waitPutAge, @DefaultValue("60s") Duration grace,
                           @DefaultValue("7d") Duration retention, @DefaultValue("500") int purgeBatch,
                           @DefaultValue("5000") int restorePage) {
    }

    /**
     * Each property is a comma-separated list, so a token can be rotated by adding the new one before removing the
     * old one.
     *
     * @param producerToken tokens that may push, delete and reschedule
     * @param consumerToken tokens that may get, finish, nack and touch
     * @param adminToken    tokens that may do everything, including restore, requeue, job and the actuator
     */
    public record Auth(List<String> producerToken, List<String> consumerToken, List<String> adminToken) {
        public Auth {
            producerToken = nonBlank(producerToken);
            consumerToken = nonBlank(consumerToken);
            adminToken = nonBlank(adminToken);
        }

        private static List<String> nonBlank(List<String> tokens) {
            return tokens == null ? List.of() : tokens.stream().map(String::strip).filter(t -> !t.isEmpty()).toList();
        }
    }

    /**
     * @param pushPerSecond most {@code /push} and {@code /push/batch} requests per second per token (per client
     *                      address on an open server); 0 means no limit
     */
    public record Limits(@DefaultValue("0") int pushPerSecond) {
        public Limits {
            if (pushPerSecond < 0) {
                throw new IllegalArgumentException("sdmq.limits.push-per-second: must be 0 (off) or more, not "
                        + pushPerSecond);
            }
        }
    }
}
