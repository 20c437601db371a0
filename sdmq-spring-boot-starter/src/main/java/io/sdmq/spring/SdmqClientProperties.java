package io.sdmq.spring;

import io.sdmq.client.SdmqClientBuilder;
import io.sdmq.client.WhenBufferFull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code sdmq.client.*}: where the server is, and how the client and the listeners behave. A client setting left out
 * keeps the default of {@link SdmqClientBuilder}, which is defined there once; the listener settings are the
 * starter's own and have their defaults here.
 *
 * @param baseUrl         the server, e.g. {@code http://127.0.0.1:8080}
 * @param token           the bearer token sent on every call (the server's producer, consumer or admin token); none
 *                        by default
 * @param connectTimeout  how long opening a connection may take (5s)
 * @param requestTimeout  how long a call waits for its answer, a poll on top of its own timeout (30s)
 * @param maxRetries      how many times a call is sent again after a 503 or a connection failure (3)
 * @param retryBackoff    the wait before the first retry, doubled before each next one (200ms)
 * @param maxRetryBackoff the longest wait between two attempts (5s)
 * @param producer        how pushes are gathered into batches
 * @param listener        the defaults of every {@code @SdmqListener}
 */
@ConfigurationProperties("sdmq.client")
public record SdmqClientProperties(@DefaultValue("http://localhost:8080") URI baseUrl, String token,
                                   Duration connectTimeout, Duration requestTimeout, Integer maxRetries,
                                   Duration retryBackoff, Duration maxRetryBackoff,
                                   @DefaultValue Producer producer, @DefaultValue Listener listener) {

    public SdmqClientProperties {
        Objects.requireNonNull(baseUrl, "sdmq.client.base-url");
        producer = producer == null ? new Producer(null, null, null, null, null) : producer;
        Objects.requireNonNull(listener, "sdmq.client.listener");
    }

    /** The client's builder with every setting given here; the others keep the builder's defaults. */
    SdmqClientBuilder applyTo(SdmqClientBuilder b) {
        set(token, b::token);
        set(connectTimeout, b::connectTimeout);
        set(requestTimeout, b::requestTimeout);
        set(maxRetries, b::maxRetries);
        set(retryBackoff, b::retryBackoff);
        set(maxRetryBackoff, b::maxRetryBackoff);
        set(producer.maxBatch(), b::maxBatch);
        set(producer.linger(), b::linger);
        set(producer.maxInFlight(), b::maxInFlightBatches);
        set(producer.bufferSize(), b::bufferSize);
        set(producer.whenBufferFull(), b::whenBufferFull);
        return b;
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /**
     * {@code sdmq.client.producer.*}: the batching of {@code push} and {@code pushAsync}.
     *
     * @param maxBatch       the most messages in one {@code /push/batch} call, 1..1000 (500)
     * @param linger         how long the oldest message of a batch that is not full waits for others (5ms)
     * @param maxInFlight    the most batches sent and not yet answered (4)
     * @param bufferSize     the most messages pushed and not yet sent (10000)
     * @param whenBufferFull what a push does when the buffer is full: block (the default) or fail
     */
    public record Producer(Integer maxBatch, Duration linger, Integer maxInFlight, Integer bufferSize,
                           WhenBufferFull whenBufferFull) {
    }

    /**
     * {@code sdmq.client.listener.*}: how each {@code @SdmqListener} polls, unless its annotation says otherwise.
     *
     * @param count           the most messages one poll asks for, 1..100
     * @param pollTimeout     how long a poll waits for a first message, at most 60s; a stop waits for the polls
     *                        under way, so keep it short
     * @param linger          how long a poll waits, once a first message is ready, for the batch to fill; the server
     *                        caps it (sdmq.consumer.max-linger, 50ms)
     * @param concurrency     threads polling and handling each listener's topic
     * @param ttr             the time-to-run assumed for a message until its first touch tells the real one (the
     *                        server does not send it with the message): a handler still running at half of it
     *                        touches the message; the server's own default TTR is 30s
     * @param errorBackoff    how long a thread waits after a poll failed (the server down, say) before the next
     * @param shutdownTimeout how long a stop waits for the messages being handled
     */
    public record Listener(@DefaultValue("10") int count, @DefaultValue("5s") Duration pollTimeout,
                           @DefaultValue("20ms") Duration linger, @DefaultValue("1") int concurrency,
                           @DefaultValue("30s") Duration ttr, @DefaultValue("1s") Duration errorBackoff,
                           @DefaultValue("30s") Duration shutdownTimeout) {

        public Listener {
            if (count < 1 || count > 100) {
                throw new IllegalArgumentException("sdmq.client.listener.count: must be 1..100, was " + count);
            }
            if (concurrency < 1) {
                throw new IllegalArgumentException("sdmq.client.listener.concurrency: must be at least 1, was "
                        + concurrency);
            }
            between("poll-timeout", pollTimeout, Duration.ofMillis(1), Duration.ofSeconds(60));
            between("linger", linger, Duration.ZERO, Duration.ofSeconds(60));
            between("ttr", ttr, Duration.ofMillis(2), Duration.ofDays(1));
            between("error-backoff", errorBackoff, Duration.ZERO, Duration.ofMinutes(10));
            between("shutdown-timeout", shutdownTimeout, Duration.ZERO, Duration.ofHours(1));
        }

        private static void between(String name, Duration value, Duration least, Duration most) {
            String property = "sdmq.client.listener." + name;
            Objects.requireNonNull(value, property);
            if (value.compareTo(least) < 0 || value.compareTo(most) > 0) {
                throw new IllegalArgumentException(property + ": must be " + least + ".." + most + ", was " + value);
            }
        }
    }
}
