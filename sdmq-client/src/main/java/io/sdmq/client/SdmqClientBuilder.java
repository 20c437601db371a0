package io.sdmq.client;

import java.net.URI;
import java.time.Duration;

/**
 * Builds an {@link SdmqClient}; every option has a default, named on its setter. The batching defaults were chosen
 * by measurement (BENCHMARKS.md, issue 44; decisions 0025 and 0043): a batch leaves at 500 messages or when its oldest
 * has waited 5 ms, with 4 batches in flight and 10 000 messages buffered. The linger holds back the pushes nobody
 * waits for: a batch that holds a waiting push leaves as soon as no batch is in flight.
 */
public final class SdmqClientBuilder {
    private final URI baseUri;
    private String token;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private int maxRetries = 3;
    private Duration retryBackoff = Duration.ofMillis(200);
    private Duration maxRetryBackoff = Duration.ofSeconds(5);
    private int maxBatch = 500;
    private Duration linger = Duration.ofMillis(5);
    private int maxInFlightBatches = 4;
    private int bufferSize = 10_000;
    private WhenBufferFull whenBufferFull = WhenBufferFull.BLOCK;

    SdmqClientBuilder(URI baseUri) {
        this.baseUri = baseUri;
    }

    /** The bearer token sent on every call (the server's producer, consumer or admin token); none by default. */
    public SdmqClientBuilder token(String token) {
        this.token = token;
        return this;
    }

    /** How long opening a connection may take before the attempt counts as a connection failure; 5 s. */
    public SdmqClientBuilder connectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * How long a call waits for its answer, a {@code get} on top of its own timeout, before the attempt counts as a
     * connection failure; 30 s. The server answers a push that cannot commit within its write timeout (5 s) with 503.
     */
    public SdmqClientBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /**
     * How many times a call is sent again after a 503 or a connection failure (never after another answer); 3.
     * A push whose answer was lost may have been committed: sent again without a {@code bizKey}, it may be stored
     * twice; with a {@code bizKey} it is idempotent. Set 0 where a duplicate is worse than a failed push.
     */
    public SdmqClientBuilder maxRetries(int maxRetries) {
        this.maxRetries = maxRetries;
        return this;
    }

    /**
     * The wait before the first retry, 200 ms; it doubles before each next one, up to {@link #maxRetryBackoff}, and
     * each wait is drawn at random between its half and its whole, so clients that failed together spread out.
     */
    public SdmqClientBuilder retryBackoff(Duration retryBackoff) {
        this.retryBackoff = retryBackoff;
        return this;
    }

    /** The longest wait between two attempts; 5 s. */
    public SdmqClientBuilder maxRetryBackoff(Duration maxRetryBackoff) {
        this.maxRetryBackoff = maxRetryBackoff;
        return this;
    }

    /** The most messages of {@code push} and {@code pushAsync} in one {@code /push/batch} call, 1..1000; 500. */
    public SdmqClientBuilder maxBatch(int maxBatch) {
        this.maxBatch = maxBatch;
        return this;
    }

    /** How long the oldest message of a batch that is not full waits for others before the batch leaves; 5 ms. */
    public SdmqClientBuilder linger(Duration linger) {
        this.linger = linger;
        return this;
    }

    /** The most batches sent and not yet answered; the sender waits for one to end before sending more; 4. */
    public SdmqClientBuilder maxInFlightBatches(int maxInFlightBatches) {
        this.maxInFlightBatches = maxInFlightBatches;
        return this;
    }

    /** The most messages pushed and not yet sent, the bound on the client's memory; 10 000. */
    public SdmqClientBuilder bufferSize(int bufferSize) {
        this.bufferSize = bufferSize;
        return this;
    }

    /** What a push does when the buffer is full: {@link WhenBufferFull#BLOCK} (the default) or FAIL. */
    public SdmqClientBuilder whenBufferFull(WhenBufferFull whenBufferFull) {
        this.whenBufferFull = whenBufferFull;
        return this;
    }

    /** A started client: its sender thread runs until {@link SdmqClient#close()}. */
    public SdmqClient build() {
        return new SdmqClient(new ClientSettings(baseUri, token, connectTimeout, requestTimeout, maxRetries,
                retryBackoff, maxRetryBackoff, maxBatch, linger, maxInFlightBatches, bufferSize, whenBufferFull));
    }
}
