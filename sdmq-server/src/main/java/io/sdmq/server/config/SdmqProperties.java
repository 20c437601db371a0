package io.sdmq.server.config;

import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * sdmq's own settings, under {@code sdmq.*}. The engine's defaults are defined once, in {@link EngineSettings.Builder}:
 * a property left unset here keeps that default ({@link #engineSettings} binds the ones that are set onto it). The
 * server's own (buckets, key prefix, host, worker id, tokens, limits) have their defaults here.
 *
 * @param buckets      number of Redis buckets; fixed for the life of a deployment
 * @param keyPrefix    prefix of every Redis key sdmq writes
 * @param host         this instance's name in the status log; empty means host name and process id
 * @param workerId     snowflake worker number 0..1023; empty means leased from Redis, so two instances never share one
 * @param defaultTtr   time-to-run of a popped message when the producer gives none (30s)
 * @param maxDelay     furthest in the future a message may be due (365d)
 * @param maxBodySize  largest message body, UTF-8 (64KB)
 * @param retry        redelivery policy when the producer gives none
 * @param scheduler    scheduling loop settings
 * @param journal      the status log writers' settings (the property prefix keeps its first name)
 * @param consumer     long-poll settings
 * @param recovery     restore, reconcile and retention settings
 * @param auth         bearer tokens and their roles and topics; none at all leaves the server open
 * @param limits       request rate limits
 */
@ConfigurationProperties("sdmq")
public record SdmqProperties(
        @DefaultValue("16") int buckets,
        @DefaultValue("sdmq") String keyPrefix,
        @DefaultValue("") String host,
        Integer workerId,
        Duration defaultTtr,
        Duration maxDelay,
        DataSize maxBodySize,
        @DefaultValue Retry retry,
        @DefaultValue Scheduler scheduler,
        @DefaultValue Journal journal,
        @DefaultValue Consumer consumer,
        @DefaultValue Recovery recovery,
        @DefaultValue Auth auth,
        @DefaultValue Limits limits) {

    /** The engine's settings: its defaults, with every property that is set bound onto them. */
    public EngineSettings engineSettings(String instanceName) {
        EngineSettings.Builder b = EngineSettings.builder().host(instanceName);
        set(defaultTtr, b::defaultTtr);
        set(maxDelay, b::maxDelay);
        set(maxBodySize, size -> b.maxBodyBytes(Math.toIntExact(size.toBytes())));
        set(retry.maxAttempts(), b::maxAttempts);
        set(retry.delays(), b::retryDelays);
        set(scheduler.moveBatch(), b::moveBatch);
        set(scheduler.maxSleep(), b::maxSleep);
        set(scheduler.coldAfter(), b::coldAfter);
        set(journal.capacity(), b::writeCapacity);
        set(journal.backgroundCapacity(), b::backgroundCapacity);
        set(journal.batch(), b::writeBatch);
        set(journal.writeTimeout(), b::writeTimeout);
        set(journal.linger(), b::linger);
        set(consumer.maxCount(), b::maxPopCount);
        set(consumer.maxWait(), b::maxWait);
        set(consumer.maxLinger(), b::maxPopLinger);
        set(consumer.readySweep(), b::readySweep);
        set(consumer.maxWaitingPerTopic(), b::maxWaitingPerTopic);
        return b.recovery(this::bindRecovery).build();
    }

    private void bindRecovery(RecoverySettings.Builder r) {
        set(recovery.autoRestore(), r::autoRestore);
        set(recovery.reconcileInterval(), r::reconcileInterval);
        set(recovery.waitPutAge(), r::waitPutAge);
        set(recovery.grace(), r::grace);
        set(recovery.retention(), r::retention);
        set(recovery.purgeBatch(), r::purgeBatch);
        set(recovery.restorePage(), r::restorePage);
    }

    private static <T> void set(T value, java.util.function.Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /**
     * @param maxAttempts deliveries before a message is dead (8)
     * @param delays      backoff before each redelivery; the last one repeats (0s, 10s, 1m, 5m, 30m, 1h, 2h, 6h)
     */
    public record Retry(Integer maxAttempts, List<Duration> delays) {
    }

    /**
     * @param moveBatch most messages one move step takes from a bucket (1000)
     * @param maxSleep  longest the scheduler and the reaper sleep without looking at Redis (1s)
     * @param coldAfter a message due further ahead is kept in Redis as its id alone, its body only in MySQL, until it
     *                  is due within half of this; 0: every message whole in Redis (1h)
     */
    public record Scheduler(Integer moveBatch, Duration maxSleep, Duration coldAfter) {
    }

    /**
     * @param capacity     pending MySQL writes that requests wait for before producers get 503 (100000)
     * @param backgroundCapacity pending non-terminal transitions before deliveries wait for the background writer
     *                     (500000)
     * @param batch        most writes folded into one transaction (1000)
     * @param writeTimeout how long a request waits for its commit before it answers 503 (5s)
     * @param linger       how long the background writer gathers non-terminal transitions into one transaction (60ms)
     */
    public record Journal(Integer capacity, Integer backgroundCapacity, Integer batch, Duration writeTimeout,
                          Duration linger) {
    }

    /**
     * @param maxCount   most messages one {@code /get} may take (100)
     * @param maxWait    longest a {@code /get} may wait (60s)
     * @param maxLinger  longest a {@code /get} may linger to fill its batch once a first message is ready (50ms)
     * @param readySweep how often topics with waiting consumers are checked for ready messages (1s)
     * @param maxWaitingPerTopic most {@code /get} calls one topic may have waiting on an instance; more answer 429
     *                   (1000)
     */
    public record Consumer(Integer maxCount, Duration maxWait, Duration maxLinger, Duration readySweep,
                           Integer maxWaitingPerTopic) {
    }

    /**
     * @param autoRestore       at start, restore buckets that are empty in Redis from MySQL (true)
     * @param reconcileInterval how often WAIT_PUT and overdue-but-missing messages are put back into Redis (10s)
     * @param waitPutAge        how long a message may stay WAIT_PUT before the reconciler schedules it (5s)
     * @param grace             how far past due a message must be before the reconciler checks that Redis holds it
     *                          (60s)
     * @param retention         how long terminal messages are kept in MySQL; 0 keeps them forever (7d)
     * @param purgeBatch        most messages one retention transaction deletes (500)
     * @param restorePage       messages a restore reads from MySQL and writes to Redis at a time (5000)
     */
    public record Recovery(Boolean autoRestore, Duration reconcileInterval, Duration waitPutAge, Duration grace,
                           Duration retention, Integer purgeBatch, Integer restorePage) {
    }

    /**
     * The legacy properties are comma-separated lists, so a token can be rotated by adding the new one before removing
     * the old one; a named token under {@code tokens} carries one role and, optionally, the topics it may act on.
     *
     * @param producerToken tokens that may push, delete and reschedule
     * @param consumerToken tokens that may get, finish, nack and touch
     * @param adminToken    tokens that may do everything, including restore, requeue, job and the actuator
     * @param tokens        named tokens ({@code sdmq.auth.tokens.<name>.secret}, {@code .role}, {@code .topics}); the
     *                      name stands for the token in logs and in the status log's notes
     */
    public record Auth(List<String> producerToken, List<String> consumerToken, List<String> adminToken,
                       Map<String, NamedToken> tokens) {
        /** The roles a named token may hold. */
        public static final List<String> ROLES = List.of("producer", "consumer", "admin", "viewer");
        /** A topic pattern: topic characters, and {@code *} for any run of them. */
        public static final Pattern TOPIC_PATTERN = Pattern.compile("[A-Za-z0-9._*-]{1,64}");
        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

        public Auth {
            producerToken = nonBlank(producerToken);
            consumerToken = nonBlank(consumerToken);
            adminToken = nonBlank(adminToken);
            tokens = tokens == null ? Map.of() : Map.copyOf(tokens);
            Map<String, String> owners = new HashMap<>();
            producerToken.forEach(t -> owners.put(t, "sdmq.auth.producer-token"));
            consumerToken.forEach(t -> owners.put(t, "sdmq.auth.consumer-token"));
            adminToken.forEach(t -> owners.put(t, "sdmq.auth.admin-token"));
            for (String name : new TreeSet<>(tokens.keySet())) {
                String property = "sdmq.auth.tokens." + name;
                if (!NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException(property + ": a token name must match [A-Za-z0-9_-]{1,64}");
                }
                tokens.get(name).check(property);
                String other = owners.putIfAbsent(tokens.get(name).secret(), property);
                if (other != null) {
                    throw new IllegalArgumentException(property + ".secret: is also the secret of " + other
                            + "; each named token needs a secret of its own");
                }
            }
        }

        private static List<String> nonBlank(List<String> tokens) {
            return tokens == null ? List.of() : tokens.stream().map(String::strip).filter(t -> !t.isEmpty()).toList();
        }
    }

    /**
     * @param secret the bearer token a caller presents; a long random string
     * @param role   producer, consumer, admin or viewer (reads stats, search, {@code /job/{id}} and metrics)
     * @param topics topic patterns ({@code orders.*}) beyond which the token can do nothing; absent: every topic
     */
    public record NamedToken(String secret, String role, List<String> topics) {
        public NamedToken {
            secret = secret == null ? "" : secret.strip();
            role = role == null ? null : role.strip().toLowerCase(Locale.ROOT);
            topics = topics == null ? null : topics.stream().map(String::strip).toList();
        }

        private void check(String property) {
            if (secret.isEmpty()) {
                throw new IllegalArgumentException(property + ".secret: is required (a long random string)");
            }
            if (role == null || !Auth.ROLES.contains(role)) {
                throw new IllegalArgumentException(property + ".role: must be one of " + String.join(", ", Auth.ROLES)
                        + (role == null ? "" : ", not \"" + role + "\""));
            }
            if (topics != null && topics.isEmpty()) {
                throw new IllegalArgumentException(property + ".topics: must list at least one topic pattern; "
                        + "leave it out for every topic");
            }
            for (String pattern : topics == null ? List.<String>of() : topics) {
                if (!Auth.TOPIC_PATTERN.matcher(pattern).matches()) {
                    throw new IllegalArgumentException(property + ".topics: \"" + pattern + "\" must be 1..64 of "
                            + "[A-Za-z0-9._-] and * (any run of them), e.g. orders.*");
                }
            }
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
