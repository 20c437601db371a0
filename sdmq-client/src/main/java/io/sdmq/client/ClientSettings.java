package io.sdmq.client;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/** A client's settings, checked once; {@link SdmqClientBuilder} defines the defaults and says what each one does. */
record ClientSettings(URI baseUri, String token, Duration connectTimeout, Duration requestTimeout, int maxRetries,
                      Duration retryBackoff, Duration maxRetryBackoff, int maxBatch, Duration linger,
                      int maxInFlightBatches, int bufferSize, WhenBufferFull whenBufferFull) {

    /** The most messages the server takes in one {@code /push/batch}. */
    static final int SERVER_MAX_BATCH = 1_000;

    ClientSettings {
        Objects.requireNonNull(baseUri, "baseUri");
        if (!"http".equals(baseUri.getScheme()) && !"https".equals(baseUri.getScheme())) {
            throw new IllegalArgumentException("baseUri: must be an http or https URI, was " + baseUri);
        }
        baseUri = URI.create(baseUri.toString().replaceAll("/+$", ""));
        positive("connectTimeout", connectTimeout);
        positive("requestTimeout", requestTimeout);
        positive("retryBackoff", retryBackoff);
        positive("maxRetryBackoff", maxRetryBackoff);
        Objects.requireNonNull(linger, "linger");
        if (linger.isNegative()) {
            throw new IllegalArgumentException("linger: must not be negative, was " + linger);
        }
        atLeast("maxRetries", maxRetries, 0);
        atLeast("maxInFlightBatches", maxInFlightBatches, 1);
        atLeast("bufferSize", bufferSize, 1);
        if (maxBatch < 1 || maxBatch > SERVER_MAX_BATCH) {
            throw new IllegalArgumentException("maxBatch: must be 1.." + SERVER_MAX_BATCH + ", was " + maxBatch);
        }
        Objects.requireNonNull(whenBufferFull, "whenBufferFull");
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + ": must be positive, was " + value);
        }
    }

    private static void atLeast(String name, int value, int least) {
        if (value < least) {
            throw new IllegalArgumentException(name + ": must be at least " + least + ", was " + value);
        }
    }
}
