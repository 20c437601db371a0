package io.sdmq.core.engine;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.PushRules;
import io.sdmq.common.Transition;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.spi.InMemoryMessageLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The second durable writer takes new writes only while the first has a burst queued, and commits beside it. */
class JournalsTest {
    private final ExecutorService callers = Executors.newFixedThreadPool(4);
    private final InMemoryMessageLog messageLog = new InMemoryMessageLog();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstCallHeld = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Journals journals = new Journals(
            JournalWriterTest.recordingCalls(messageLog, calls, firstCallHeld, release, false), settings());

    @AfterEach
    void stop() {
        release.countDown();
        callers.shutdownNow();
        journals.stop();
    }

    @Test
    void durable_writes_go_to_the_first_writer_until_it_has_a_burst_queued_and_the_second_has_less() {
        JournalWriter first = journals.durable();
        queue(first, Journals.BURST_ROWS - 1);
        assertThat(journals.durable()).isSameAs(first);

        queue(first, 1);
        JournalWriter second = journals.durable();
        assertThat(second).isNotSameAs(first);

        queue(second, Journals.BURST_ROWS);
        assertThat(journals.durable()).isSameAs(first);
    }

    @Test
    void in_a_burst_a_second_commit_runs_while_the_first_is_under_way() throws Exception {
        journals.start();
        JournalWriter first = journals.durable();
        Future<List<Long>> held = callers.submit(() -> first.insertAll(List.of(aMessage().build())));
        assertThat(firstCallHeld.await(5, TimeUnit.SECONDS)).isTrue();
        List<Future<List<Long>>> queued = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            queued.add(callers.submit(() -> journals.durable().insertAll(messages(Journals.BURST_ROWS / 2))));
            int rows = i * Journals.BURST_ROWS / 2;
            await().until(() -> first.queuedRows() == rows);
        }

        List<Message> beside = messages(10);
        assertThat(journals.durable().insertAll(beside)).containsExactlyElementsOf(beside.stream().map(Message::id)
                .toList());

        assertThat(messageLog.find(beside.get(9).id()).orElseThrow().status()).isEqualTo(MessageStatus.WAIT_PUT);
        assertThat(held).isNotDone();
        release.countDown();
        assertThat(held.get(5, TimeUnit.SECONDS)).hasSize(1);
        for (Future<List<Long>> f : queued) {
            assertThat(f.get(5, TimeUnit.SECONDS)).hasSize(Journals.BURST_ROWS / 2);
        }
        assertThat(first.queuedRows()).isZero();
    }

    /** Queues rows on a writer whose thread is not running: transitions nobody waits for. */
    private static void queue(JournalWriter writer, int rows) {
        for (int i = 0; i < rows; i++) {
            writer.record(Transition.of(i, MessageStatus.RESERVED, MessageStatus.FINISHED, 1, "b0"));
        }
    }

    private static List<Message> messages(int count) {
        List<Message> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            messages.add(aMessage().build());
        }
        return messages;
    }

    private static EngineSettings settings() {
        return EngineFixture.settings(new PushRules(Duration.ofDays(365).toMillis(), 65_536, 30_000, 3,
                List.of(1_000L)), 1_000);
    }
}
