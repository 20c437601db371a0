package io.sdmq.client;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.sdmq.client.TestServer.freshTopic;
import static io.sdmq.client.TestServer.receive;
import static io.sdmq.client.TestServer.requestsServed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The pushes of many threads gathered into {@code /push/batch} calls, against the server jar: every message gets its
 * own id or its own error, the buffer is bounded, a lone message leaves after the linger, close sends what is left.
 */
class PushBatchingIT {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 500;

    private final URI server = TestServer.shared();
    private final String topic = freshTopic();

    /** One way to push: {@code push} (the future is done when it returns) or {@code pushAsync}. */
    @FunctionalInterface
    private interface Push {
        CompletableFuture<String> apply(SdmqClient client, PushMessage message);
    }

    /** 8 threads and 4 batch slots: a push that finds a batch in flight waits for the next batch with others. */
    @Test
    void blocking_pushes_of_more_threads_than_slots_share_batches_and_are_all_delivered() throws Exception {
        pushFromManyThreads((client, message) -> CompletableFuture.completedFuture(client.push(message)), 1.2);
    }

    @Test
    void a_blocking_push_that_finds_no_batch_in_flight_is_sent_at_once_by_its_caller() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMinutes(1)).build()) {
            String id = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> client.push(PushMessage.of(topic, "m")));

            assertThat(client.stats().batches()).isEqualTo(1);
            assertThat(receive(client, topic, 1)).extracting(Delivered::id).containsExactly(id);
        }
    }

    /** A waiting push that finds messages lingering takes them along at once when no batch is in flight. */
    @Test
    void a_blocking_push_joins_the_lingering_messages_and_they_leave_without_the_linger() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMinutes(1)).build()) {
            CompletableFuture<String> lingering = client.pushAsync(PushMessage.of(topic, "async"));
            String id = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> client.push(PushMessage.of(topic, "waited for")));

            assertThat(lingering).isCompleted();
            assertThat(client.stats().batches()).isEqualTo(1);
            assertThat(client.stats().batchedMessages()).isEqualTo(2);
            assertThat(receive(client, topic, 2)).extracting(Delivered::id)
                    .containsExactlyInAnyOrder(id, lingering.join());
        }
    }

    /**
     * Waiting pushes that join a batch while others are in flight leave as soon as none is: with a linger of a minute,
     * 8 threads' 400 pushes end long before one linger would.
     */
    @Test
    void blocking_pushes_that_wait_for_a_batch_in_flight_do_not_wait_for_the_linger() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMinutes(1)).build()) {
            List<String> ids = assertTimeoutPreemptively(Duration.ofSeconds(40),
                    () -> fromThreads(client, (c, message) -> CompletableFuture.completedFuture(c.push(message)), 50));

            assertThat(Set.copyOf(ids)).hasSize(THREADS * 50);
            assertThat(client.stats().batches()).isLessThan(THREADS * 50);
        }
    }

    @Test
    void async_pushes_of_8_threads_are_gathered_into_full_batches_and_all_delivered() throws Exception {
        pushFromManyThreads(SdmqClient::pushAsync, 20);
    }

    /**
     * 8 threads push 500 messages each, then wait for their ids; every id is distinct, every message is delivered,
     * and the client made at most one {@code /push/batch} call per {@code fewer} messages, as the server counted too.
     */
    private void pushFromManyThreads(Push push, double fewer) throws Exception {
        long served = requestsServed(server, "/push/batch");
        List<String> ids = new ArrayList<>();
        ClientStats stats;
        try (SdmqClient client = SdmqClient.builder(server).build()) {
            ids.addAll(fromThreads(client, push, PER_THREAD));
            stats = client.stats();
            assertThat(Set.copyOf(ids)).hasSize(THREADS * PER_THREAD);
            assertThat(receive(client, topic, THREADS * PER_THREAD)).extracting(Delivered::id)
                    .containsExactlyInAnyOrderElementsOf(ids);
        }
        assertThat(stats.batchedMessages()).isEqualTo(THREADS * PER_THREAD);
        assertThat(stats.batches()).isLessThanOrEqualTo((long) (THREADS * PER_THREAD / fewer));
        assertThat(stats.retries()).isZero();
        await().untilAsserted(() -> assertThat(requestsServed(server, "/push/batch") - served)
                .isEqualTo(stats.batches()));
    }

    /** {@code perThread} messages pushed from each of {@link #THREADS} threads; their ids, once every push answered. */
    private List<String> fromThreads(SdmqClient client, Push push, int perThread) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        List<Future<List<String>>> pushed = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            pushed.add(threads.submit(() -> pushes(client, push, thread, perThread)));
        }
        List<String> ids = new ArrayList<>();
        for (Future<List<String>> each : pushed) {
            ids.addAll(each.get());
        }
        threads.shutdown();
        return ids;
    }

    private List<String> pushes(SdmqClient client, Push push, int thread, int count) {
        List<CompletableFuture<String>> async = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            PushMessage message = PushMessage.of(topic, thread + "-" + i);
            async.add(push.apply(client, message));
        }
        return async.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void a_batch_with_one_bad_message_fails_only_that_message() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMillis(500)).build()) {
            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                futures.add(client.pushAsync(PushMessage.of(i == 5 ? "a b" : topic, "m-" + i)));
            }

            assertThat(futures.get(5)).failsWithin(Duration.ofSeconds(30)).withThrowableOfType(Exception.class)
                    .havingCause().isInstanceOfSatisfying(SdmqClientException.InvalidRequest.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.serverMessage()).startsWith("topic: ");
                    });
            futures.remove(5);
            List<String> ids = futures.stream().map(CompletableFuture::join).toList();
            assertThat(Set.copyOf(ids)).hasSize(9);
            assertThat(client.stats().batches()).isEqualTo(1);
            assertThat(client.stats().requests()).as("one batch, then each of its messages alone").isEqualTo(11);
            assertThat(receive(client, topic, 9)).extracting(Delivered::id).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void messages_with_different_duplicate_policies_never_share_a_batch() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMillis(500)).build()) {
            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                OnDuplicate policy = i % 2 == 0 ? OnDuplicate.IGNORE : OnDuplicate.REPLACE;
                futures.add(client.pushAsync(PushMessage.builder(topic, "m").bizKey("k-" + i).onDuplicate(policy)
                        .build()));
            }

            assertThat(futures.stream().map(CompletableFuture::join).distinct()).hasSize(6);
            assertThat(client.stats().batches()).isEqualTo(2);
            assertThat(client.stats().requests()).isEqualTo(2);
        }
    }

    @Test
    void a_full_buffer_fails_a_push_at_once_when_told_to_fail() {
        SdmqClient client = SdmqClient.builder(server).bufferSize(5).linger(Duration.ofMinutes(1))
                .whenBufferFull(WhenBufferFull.FAIL).build();
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            accepted.add(client.pushAsync(PushMessage.of(topic, "m-" + i)));
        }

        assertThat(client.pushAsync(PushMessage.of(topic, "one too many"))).isCompletedExceptionally()
                .failsWithin(Duration.ZERO).withThrowableOfType(Exception.class).havingCause()
                .isInstanceOf(SdmqClientException.BufferFull.class).withMessageContaining("bufferSize");
        assertThatThrownBy(() -> client.push(PushMessage.of(topic, "and another")))
                .isInstanceOf(SdmqClientException.BufferFull.class);
        assertThat(accepted).noneMatch(CompletableFuture::isDone);

        client.close();
        assertThat(accepted).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(client.stats().batchedMessages()).isEqualTo(5);
    }

    @Test
    void a_full_buffer_blocks_a_push_until_the_batch_leaves_when_told_to_block() throws Exception {
        try (SdmqClient client = SdmqClient.builder(server).bufferSize(5).linger(Duration.ofSeconds(5)).build()) {
            List<CompletableFuture<String>> accepted = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                accepted.add(client.pushAsync(PushMessage.of(topic, "m-" + i)));
            }
            ExecutorService thread = Executors.newSingleThreadExecutor();
            Future<CompletableFuture<String>> sixth = thread.submit(() -> client.pushAsync(PushMessage.of(topic, "6")));

            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> !sixth.isDone());
            assertThat(accepted).noneMatch(CompletableFuture::isDone);

            await().atMost(Duration.ofSeconds(30)).until(sixth::isDone);
            accepted.add(sixth.get());
            thread.shutdown();
            Set<String> ids = new HashSet<>(accepted.stream().map(CompletableFuture::join).toList());
            assertThat(ids).hasSize(6);
        }
    }

    @Test
    void close_sends_every_message_accepted_before_it() {
        SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMinutes(1)).maxBatch(1_000).build();
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            accepted.add(client.pushAsync(PushMessage.of(topic, "m-" + i)));
        }
        assertThat(accepted).noneMatch(CompletableFuture::isDone);

        client.close();

        assertThat(accepted).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        List<String> ids = accepted.stream().map(CompletableFuture::join).toList();
        try (SdmqClient consumer = SdmqClient.builder(server).build()) {
            assertThat(receive(consumer, topic, 50)).extracting(Delivered::id).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void a_lone_message_leaves_after_the_linger_without_waiting_for_a_full_batch() {
        try (SdmqClient client = SdmqClient.builder(server).linger(Duration.ofMillis(20)).maxBatch(100).build()) {
            CompletableFuture<String> id = client.pushAsync(PushMessage.of(topic, "alone"));

            assertThat(id).succeedsWithin(Duration.ofSeconds(10)).asString().containsOnlyDigits();
            assertThat(client.stats().batches()).isEqualTo(1);
            assertThat(client.stats().batchedMessages()).isEqualTo(1);
        }
    }
}
