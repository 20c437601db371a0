package io.sdmq.core.spi;

import io.sdmq.common.Message;
import io.sdmq.common.MessageStatus;
import io.sdmq.common.StoredMessage;
import io.sdmq.common.Transition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.EXPIRED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

/** What every {@link MessageLog} must do; each implementation's test extends this and supplies a fresh log. */
public abstract class MessageLogContract {
    protected static final long T0 = 1_700_000_000_123L;
    protected static final String BUCKET = "sdmq:{b3}:delay";
    private static final AtomicLong ids = new AtomicLong(7_100_000_000_000_000_000L);

    protected MessageLog log;

    /** A new log over an empty store. */
    protected abstract MessageLog newLog();

    /** The host the log's history names as the writer of every row; null for a log that keeps none. */
    protected String loggedHost() {
        return null;
    }

    @BeforeEach
    void openLog() {
        log = newLog();
    }

    @Test
    void inserted_message_is_wait_put_with_its_first_log_row() {
        Message keyed = aMessage().bizKey("Bestellung-1 ✓").body("{\"emoji\":\"😀\"}").priority(7).createdAt(T0)
                .due(T0 + 5_000).ttr(45_000).maxAttempts(3).retryDelays(0L, 10_000L, 3_600_000L).build();
        Message plain = message("order", null);

        assertThat(log.insert(List.of(keyed, plain))).containsExactly(keyed.id(), plain.id());

        assertThat(log.find(keyed.id())).contains(new StoredMessage(keyed, WAIT_PUT, T0));
        assertThat(log.find(plain.id())).contains(new StoredMessage(plain, WAIT_PUT, T0));
        assertThat(log.history(keyed.id())).containsExactly(
                asLogged(new Transition(keyed.id(), null, WAIT_PUT, T0, null, null, null, currentThread(), null)));
    }

    @Test
    void find_all_answers_the_messages_of_the_ids_that_exist() {
        Message first = message("order", null);
        Message second = message("order", "o-9");
        log.insert(List.of(first, second));

        assertThat(log.findAll(List.of(second.id(), ids.incrementAndGet(), first.id())))
                .containsExactlyInAnyOrder(new StoredMessage(first, WAIT_PUT, T0),
                        new StoredMessage(second, WAIT_PUT, T0));
        assertThat(log.findAll(List.of())).isEmpty();
    }

    @Test
    void duplicate_biz_key_answers_the_existing_id_and_writes_nothing() {
        Message first = message("order", "o-1");
        log.insert(List.of(first));
        Message again = message("order", "o-1");
        Message otherTopic = message("invoice", "o-1");
        Message otherCase = message("order", "O-1");

        List<Long> answer = log.insert(List.of(again, otherTopic, otherCase));

        assertThat(answer).containsExactly(first.id(), otherTopic.id(), otherCase.id());
        assertThat(log.find(again.id())).isEmpty();
        assertThat(log.history(again.id())).isEmpty();
        assertThat(log.find(first.id()).orElseThrow().message()).isEqualTo(first);
        assertThat(log.history(first.id())).hasSize(1);
        assertThat(log.find(otherTopic.id())).isPresent();
        assertThat(log.find(otherCase.id())).isPresent();
    }

    @Test
    void duplicates_inside_one_batch_keep_the_first() {
        Message first = message("order", "o-1");
        Message second = message("order", "o-1");
        Message noKey = message("order", null);
        Message noKeyEither = message("order", null);
        Message third = message("order", "o-1");

        List<Long> answer = log.insert(List.of(first, second, noKey, noKeyEither, third));

        assertThat(answer).containsExactly(first.id(), first.id(), noKey.id(), noKeyEither.id(), first.id());
        assertThat(log.find(first.id())).isPresent();
        assertThat(log.find(second.id())).isEmpty();
        assertThat(log.find(third.id())).isEmpty();
        assertThat(log.find(noKey.id())).isPresent();
        assertThat(log.find(noKeyEither.id())).isPresent();
        assertThat(log.history(first.id())).hasSize(1);
    }

    @Test
    void concurrent_duplicate_inserts_yield_one_row() throws Exception {
        int threads = 8;
        int keys = 20;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 3; round++) {
                List<List<Message>> batches = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    batches.add(racingBatch("race-" + round, keys, new Random(31L * round + t)));
                }
                List<List<Long>> answers = insertAtOnce(pool, batches);
                assertOneRowPerKey(batches, answers);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void new_messages_and_transitions_written_together_are_each_as_if_written_alone() {
        Message earlier = stored(message("order", "o-1"));
        Message fresh = message("order", "o-2");
        Message taken = message("order", "o-1");
        Transition deleted = Transition.of(earlier.id(), WAIT_PUT, DELETED, T0 + 3, BUCKET);

        List<Long> answer = log.insertAndApply(List.of(fresh, taken), List.of(deleted));

        assertThat(answer).containsExactly(fresh.id(), earlier.id());
        assertThat(log.find(fresh.id()).orElseThrow().status()).isEqualTo(WAIT_PUT);
        assertThat(log.find(taken.id())).isEmpty();
        assertThat(statusAndUpdate(earlier)).isEqualTo("DELETED@" + (T0 + 3));
        assertThat(log.history(earlier.id())).extracting(Transition::to).containsExactly(WAIT_PUT, DELETED);
    }

    @Test
    void transitions_move_status_and_are_logged_in_order() {
        Message m = stored(message("order", "o-1"));
        Transition delay = Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET);
        Transition ready = Transition.of(m.id(), DELAY, READY, T0 + 2, BUCKET);
        Transition reserved = Transition.of(m.id(), READY, RESERVED, T0 + 2, BUCKET).withAttempts(1)
                .withNote("popped by c-1");

        log.apply(List.of(delay));
        log.apply(List.of(ready, reserved));

        StoredMessage now = log.find(m.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(RESERVED);
        assertThat(now.updateTime()).isEqualTo(T0 + 2);
        assertThat(log.history(m.id())).containsExactly(
                asLogged(new Transition(m.id(), null, WAIT_PUT, T0, null, null, null, currentThread(), null)),
                asLogged(delay), asLogged(ready), asLogged(reserved));
    }

    @Test
    void late_transition_does_not_overwrite_a_newer_one() {
        Message m = stored(message("order", "o-1"));
        log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 10, BUCKET)));
        Transition reserved = Transition.of(m.id(), READY, RESERVED, T0 + 30, BUCKET).withAttempts(1);
        Transition lateReady = Transition.of(m.id(), DELAY, READY, T0 + 20, BUCKET);

        log.apply(List.of(reserved, lateReady));
        log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 25, BUCKET)));

        StoredMessage now = log.find(m.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(RESERVED);
        assertThat(now.updateTime()).isEqualTo(T0 + 30);
        assertThat(log.history(m.id())).extracting(Transition::to)
                .containsExactly(WAIT_PUT, DELAY, READY, DELAY, RESERVED);
    }

    @Test
    void terminal_status_is_never_left_except_by_requeue() {
        Message finished = stored(message("order", "finished"));
        Message dead = stored(message("order", "dead"));
        Message expired = stored(message("order", "expired"));
        log.apply(List.of(
                Transition.of(finished.id(), RESERVED, FINISHED, T0 + 10, BUCKET),
                Transition.of(dead.id(), RESERVED, DEAD, T0 + 10, BUCKET),
                Transition.of(expired.id(), WAIT_PUT, EXPIRED, T0 + 10, BUCKET)));

        log.apply(List.of(
                Transition.of(finished.id(), RESERVED, DELAY, T0 + 20, BUCKET),
                Transition.of(finished.id(), DEAD, DELAY, T0 + 21, BUCKET),
                Transition.of(dead.id(), EXPIRED, DELAY, T0 + 20, BUCKET),
                Transition.of(dead.id(), DEAD, WAIT_PUT, T0 + 5, BUCKET)));

        assertThat(statusAndUpdate(finished)).isEqualTo(FINISHED + "@" + (T0 + 10));
        assertThat(statusAndUpdate(dead)).isEqualTo(DEAD + "@" + (T0 + 10));
        assertThat(log.history(finished.id())).hasSize(4);

        log.apply(List.of(
                Transition.of(dead.id(), DEAD, WAIT_PUT, T0 + 30, BUCKET).withNote("requeued by admin"),
                Transition.of(expired.id(), EXPIRED, DELAY, T0 + 30, BUCKET).withDueTime(T0 + 90_000)));

        assertThat(statusAndUpdate(dead)).isEqualTo(WAIT_PUT + "@" + (T0 + 30));
        assertThat(statusAndUpdate(expired)).isEqualTo(DELAY + "@" + (T0 + 30));
        assertThat(log.find(expired.id()).orElseThrow().message().dueTime()).isEqualTo(T0 + 90_000);
    }

    /**
     * Another instance's move can be timed after a pop and a finish that came after it in Redis (its clock read once
     * its script answered); the finish still ends the message's life, whether written alone, folded with its pop,
     * shared by several messages at one time, or each at its own time. An EXPIRED, which a restore decides from MySQL
     * and not Redis, keeps the guard by time.
     */
    @Test
    void a_transition_that_ends_a_life_moves_a_row_changed_later_in_that_life() {
        Message folded = stored(message("order", "e-folded"));
        Message alone = stored(message("order", "e-alone"));
        Message expired = stored(message("order", "e-expired"));
        List<Message> shared = List.of(stored(message("order", "e-s1")), stored(message("order", "e-s2")),
                stored(message("order", "e-s3")));
        List<Message> ownTimes = List.of(stored(message("order", "e-t1")), stored(message("order", "e-t2")),
                stored(message("order", "e-t3")));
        List<Message> all = new ArrayList<>(List.of(folded, alone, expired));
        all.addAll(shared);
        all.addAll(ownTimes);
        log.apply(all.stream().flatMap(m -> Stream.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 10, BUCKET),
                Transition.of(m.id(), DELAY, READY, T0 + 40, BUCKET))).toList());

        List<Transition> finishes = new ArrayList<>(List.of(
                Transition.of(folded.id(), READY, RESERVED, T0 + 30, BUCKET).withAttempts(1),
                Transition.of(folded.id(), RESERVED, FINISHED, T0 + 35, BUCKET),
                Transition.of(alone.id(), RESERVED, DEAD, T0 + 35, BUCKET),
                Transition.of(expired.id(), READY, EXPIRED, T0 + 35, BUCKET)));
        shared.forEach(m -> finishes.add(Transition.of(m.id(), RESERVED, FINISHED, T0 + 36, BUCKET)));
        for (int i = 0; i < ownTimes.size(); i++) {
            finishes.add(Transition.of(ownTimes.get(i).id(), RESERVED, FINISHED, T0 + 31 + i, BUCKET));
        }
        log.apply(finishes);

        assertThat(statusAndUpdate(folded)).isEqualTo(FINISHED + "@" + (T0 + 35));
        assertThat(statusAndUpdate(alone)).isEqualTo(DEAD + "@" + (T0 + 35));
        assertThat(statusAndUpdate(expired)).isEqualTo(READY + "@" + (T0 + 40));
        for (Message m : shared) {
            assertThat(statusAndUpdate(m)).isEqualTo(FINISHED + "@" + (T0 + 36));
        }
        for (int i = 0; i < ownTimes.size(); i++) {
            assertThat(statusAndUpdate(ownTimes.get(i))).isEqualTo(FINISHED + "@" + (T0 + 31 + i));
        }
        log.apply(List.of(Transition.of(folded.id(), DELAY, READY, T0 + 50, BUCKET)));
        assertThat(statusAndUpdate(folded)).isEqualTo(FINISHED + "@" + (T0 + 35));
    }

    /** A transition that ended a life, written again after a requeue began another, leaves the new life alone. */
    @Test
    void a_transition_that_ends_a_life_leaves_a_row_that_a_requeue_since_began_another_life() {
        List<Message> requeued = List.of(stored(message("order", "r-1")), stored(message("order", "r-2")),
                stored(message("order", "r-3")));
        log.apply(requeued.stream().flatMap(m -> Stream.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 10, BUCKET),
                Transition.of(m.id(), RESERVED, DEAD, T0 + 20, BUCKET))).toList());
        log.apply(requeued.stream()
                .map(m -> Transition.of(m.id(), DEAD, READY, T0 + 40, BUCKET).withNote("requeued")).toList());

        List<Transition> ownTimes = new ArrayList<>();
        for (int i = 0; i < requeued.size(); i++) {
            ownTimes.add(Transition.of(requeued.get(i).id(), RESERVED, DEAD, T0 + 20 + i, BUCKET));
        }
        log.apply(ownTimes);
        log.apply(requeued.stream().map(m -> Transition.of(m.id(), RESERVED, FINISHED, T0 + 30, BUCKET)).toList());
        log.apply(List.of(Transition.of(requeued.get(1).id(), RESERVED, FINISHED, T0 + 31, BUCKET)));

        for (Message m : requeued) {
            assertThat(statusAndUpdate(m)).isEqualTo(READY + "@" + (T0 + 40));
        }
    }

    @Test
    void attempts_and_due_time_follow_transitions() {
        Message m = stored(message("order", "o-1"));
        long redeliverAt = T0 + 60_000;
        log.apply(List.of(
                Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(m.id(), DELAY, READY, T0 + 2, BUCKET),
                Transition.of(m.id(), READY, RESERVED, T0 + 3, BUCKET).withAttempts(1),
                Transition.of(m.id(), RESERVED, DELAY, T0 + 5, BUCKET).withDueTime(redeliverAt).withNote("nack")));

        Message afterNack = log.find(m.id()).orElseThrow().message();
        assertThat(afterNack.attempts()).isEqualTo(1);
        assertThat(afterNack.dueTime()).isEqualTo(redeliverAt);

        log.apply(List.of(
                Transition.of(m.id(), DELAY, READY, T0 + 6, BUCKET),
                Transition.of(m.id(), RESERVED, DELAY, T0 + 4, BUCKET).withAttempts(9).withDueTime(T0 + 1)));

        StoredMessage now = log.find(m.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(READY);
        assertThat(now.message()).isEqualTo(m.withAttempts(1).withDueTime(redeliverAt));
    }

    @Test
    void transitions_batched_together_leave_the_row_as_if_applied_one_by_one() {
        Message m = stored(message("order", "o-1"));
        log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 10, BUCKET)));

        log.apply(List.of(
                Transition.of(m.id(), DELAY, READY, T0 + 5, BUCKET).withAttempts(7).withDueTime(T0 + 99),
                Transition.of(m.id(), READY, RESERVED, T0 + 20, BUCKET),
                Transition.of(m.id(), RESERVED, DELAY, T0 + 30, BUCKET).withDueTime(T0 + 60_000),
                Transition.of(m.id(), DELAY, READY, T0 + 40, BUCKET)));

        StoredMessage now = log.find(m.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(READY);
        assertThat(now.updateTime()).isEqualTo(T0 + 40);
        assertThat(now.message()).isEqualTo(m.withDueTime(T0 + 60_000));
        assertThat(log.history(m.id())).hasSize(6);
    }

    @Test
    void a_batch_that_reaches_a_terminal_status_ends_there() {
        Message m = stored(message("order", "o-1"));

        log.apply(List.of(
                Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(m.id(), DELAY, READY, T0 + 2, BUCKET),
                Transition.of(m.id(), READY, RESERVED, T0 + 3, BUCKET).withAttempts(1),
                Transition.of(m.id(), RESERVED, FINISHED, T0 + 4, BUCKET),
                Transition.of(m.id(), RESERVED, DELAY, T0 + 5, BUCKET).withAttempts(2)));

        StoredMessage now = log.find(m.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(FINISHED);
        assertThat(now.updateTime()).isEqualTo(T0 + 4);
        assertThat(now.message().attempts()).isEqualTo(1);
    }

    @Test
    void messages_that_share_a_transition_in_one_batch_are_each_guarded() {
        List<Message> fresh = List.of(stored(message("order", "s-1")), stored(message("order", "s-2")),
                stored(message("order", "s-3")));
        Message finished = stored(message("order", "s-finished"));
        Message newer = stored(message("order", "s-newer"));
        Message twice = stored(message("order", "s-twice"));
        List<Message> all = new ArrayList<>(fresh);
        all.addAll(List.of(finished, newer, twice));
        log.apply(all.stream().flatMap(m -> Stream.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 5, BUCKET),
                Transition.of(m.id(), DELAY, READY, T0 + 10, BUCKET))).toList());
        log.apply(List.of(Transition.of(finished.id(), READY, DELETED, T0 + 15, BUCKET),
                Transition.of(newer.id(), READY, RESERVED, T0 + 30, BUCKET).withAttempts(5)));

        List<Transition> batch = new ArrayList<>(all.stream()
                .map(m -> Transition.of(m.id(), READY, RESERVED, T0 + 20, BUCKET).withAttempts(1)).toList());
        batch.add(Transition.of(twice.id(), RESERVED, DELAY, T0 + 25, BUCKET).withDueTime(T0 + 60_000));
        log.apply(batch);

        for (Message m : fresh) {
            assertThat(log.find(m.id())).contains(new StoredMessage(m.withAttempts(1), RESERVED, T0 + 20));
        }
        assertThat(log.find(finished.id())).contains(new StoredMessage(finished, DELETED, T0 + 15));
        assertThat(log.find(newer.id())).contains(new StoredMessage(newer.withAttempts(5), RESERVED, T0 + 30));
        assertThat(log.find(twice.id()))
                .contains(new StoredMessage(twice.withAttempts(1).withDueTime(T0 + 60_000), DELAY, T0 + 25));
        assertThat(log.history(fresh.get(0).id())).extracting(Transition::to)
                .containsExactly(WAIT_PUT, DELAY, READY, RESERVED);
    }

    @Test
    void messages_with_one_transition_each_at_their_own_times_are_each_guarded_by_their_own_time() {
        List<Message> fresh = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            fresh.add(stored(message("order", "t-" + i)));
        }
        Message finished = stored(message("order", "t-finished"));
        Message newer = stored(message("order", "t-newer"));
        log.apply(List.of(Transition.of(finished.id(), WAIT_PUT, DELETED, T0 + 3, BUCKET),
                Transition.of(newer.id(), WAIT_PUT, DELAY, T0 + 50, BUCKET)));

        List<Transition> batch = new ArrayList<>();
        for (int i = 0; i < fresh.size(); i++) {
            batch.add(Transition.of(fresh.get(i).id(), WAIT_PUT, DELAY, T0 + 10 + i, BUCKET));
        }
        batch.add(Transition.of(finished.id(), WAIT_PUT, DELAY, T0 + 20, BUCKET));
        batch.add(Transition.of(newer.id(), WAIT_PUT, DELAY, T0 + 30, BUCKET));
        log.apply(batch);

        for (int i = 0; i < fresh.size(); i++) {
            assertThat(log.find(fresh.get(i).id())).contains(new StoredMessage(fresh.get(i), DELAY, T0 + 10 + i));
        }
        assertThat(log.find(finished.id())).contains(new StoredMessage(finished, DELETED, T0 + 3));
        assertThat(log.find(newer.id())).contains(new StoredMessage(newer, DELAY, T0 + 50));
        assertThat(log.history(fresh.get(3).id())).extracting(Transition::to).containsExactly(WAIT_PUT, DELAY);
    }

    @Test
    void history_lists_a_terminal_transition_last_within_its_millisecond_even_when_written_first() {
        Message m = stored(message("order", "o-1"));
        log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(m.id(), DELAY, READY, T0 + 2, BUCKET)));

        log.apply(List.of(Transition.of(m.id(), RESERVED, FINISHED, T0 + 3, BUCKET)));
        log.apply(List.of(Transition.of(m.id(), READY, RESERVED, T0 + 3, BUCKET).withAttempts(1)));

        assertThat(log.history(m.id())).extracting(Transition::to)
                .containsExactly(WAIT_PUT, DELAY, READY, RESERVED, FINISHED);
    }

    @Test
    void times_round_trip_to_the_millisecond() {
        TimeZone original = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
            long created = Instant.parse("2024-03-10T02:30:00.999Z").toEpochMilli();
            long due = Instant.parse("2024-11-03T01:30:00.001Z").toEpochMilli();
            Message m = aMessage().createdAt(created).due(due).build();
            log.insert(List.of(m));
            log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, created + 1, BUCKET)));

            TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
            StoredMessage stored = log.find(m.id()).orElseThrow();
            assertThat(stored.message()).isEqualTo(m);
            assertThat(stored.updateTime()).isEqualTo(created + 1);
            assertThat(log.history(m.id())).extracting(Transition::changedAt).containsExactly(created, created + 1);
        } finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    void find_unknown_id_is_empty() {
        stored(message("order", "o-1"));

        assertThat(log.find(nextId())).isEmpty();
        assertThat(log.history(nextId())).isEmpty();
    }

    @Test
    void a_thousand_large_messages_and_transitions_fit_in_one_call() {
        String body = "é".repeat(20_000);
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            messages.add(aMessage().topic("bulk").bizKey("k-" + i).body(body).createdAt(T0).due(T0 + i).build());
        }
        assertThat(log.insert(messages)).containsExactlyElementsOf(messages.stream().map(Message::id).toList());

        log.apply(messages.stream().map(m -> Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET)).toList());

        for (Message m : List.of(messages.get(0), messages.get(499), messages.get(500), messages.get(999))) {
            assertThat(log.find(m.id())).contains(new StoredMessage(m, DELAY, T0 + 1));
        }
    }

    @Test
    void pending_messages_are_paged_by_id_without_terminal_ones() {
        Message a = stored(message("order", null));
        Message b = stored(message("order", null));
        Message c = stored(message("order", null));
        Message d = stored(message("order", null));
        log.apply(List.of(Transition.of(b.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(c.id(), WAIT_PUT, DELETED, T0 + 1, BUCKET)));

        assertThat(ids(log.findPending(0, 2))).containsExactly(a.id(), b.id());
        assertThat(ids(log.findPending(b.id(), 2))).containsExactly(d.id());
        assertThat(log.findPending(d.id(), 2)).isEmpty();
    }

    @Test
    void wait_put_messages_not_changed_since_a_time_are_found_earliest_due_first() {
        Message later = stored(aMessage().createdAt(T0).due(T0 + 9_000).build());
        Message sooner = stored(aMessage().createdAt(T0 + 10_000).due(T0 + 12_000).build());
        Message scheduled = stored(aMessage().createdAt(T0).due(T0 + 1_000).build());
        log.apply(List.of(Transition.of(scheduled.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET)));

        assertThat(ids(log.findWaitPut(T0 + 1, 10))).containsExactly(later.id());
        assertThat(ids(log.findWaitPut(T0 + 20_000, 10))).containsExactly(later.id(), sooner.id());
        assertThat(ids(log.findWaitPut(T0 + 20_000, 1))).containsExactly(later.id());
    }

    @Test
    void overdue_messages_are_scheduled_ones_due_before_a_time() {
        Message delayed = stored(aMessage().createdAt(T0).due(T0 + 5_000).build());
        Message ready = stored(aMessage().createdAt(T0).due(T0 + 5_000).build());
        Message waitPut = stored(aMessage().createdAt(T0).due(T0 + 5_000).build());
        Message notDue = stored(aMessage().createdAt(T0).due(T0 + 60_000).build());
        Message deleted = stored(aMessage().createdAt(T0).due(T0 + 5_000).build());
        log.apply(List.of(Transition.of(delayed.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(ready.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(ready.id(), DELAY, READY, T0 + 5_000, BUCKET),
                Transition.of(notDue.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(deleted.id(), WAIT_PUT, DELETED, T0 + 1, BUCKET)));

        assertThat(ids(log.findOverdue(T0 + 10_000, 0, 10))).containsExactly(delayed.id(), ready.id());
        assertThat(ids(log.findOverdue(T0 + 10_000, delayed.id(), 10))).containsExactly(ready.id());
        assertThat(log.findOverdue(T0 + 5_000, 0, 10)).isEmpty();
        assertThat(log.find(waitPut.id())).isPresent();
    }

    @Test
    void purge_keeps_to_one_topic_or_leaves_out_the_topics_named() {
        Message a = stored(aMessage().topic("a").bizKey("a").createdAt(T0).due(T0 + 10).build());
        Message b = stored(aMessage().topic("b").bizKey("b").createdAt(T0).due(T0 + 10).build());
        Message c = stored(aMessage().topic("c").bizKey("c").createdAt(T0).due(T0 + 10).build());
        log.apply(List.of(Transition.of(a.id(), WAIT_PUT, DELETED, T0 + 20, BUCKET),
                Transition.of(b.id(), WAIT_PUT, DELETED, T0 + 20, BUCKET),
                Transition.of(c.id(), WAIT_PUT, DELETED, T0 + 20, BUCKET)));

        assertThat(log.purgeTerminal(T0 + 50, 10, null, Set.of("a", "b"))).isEqualTo(1);
        assertThat(log.find(c.id())).isEmpty();
        assertThat(log.purgeTerminal(T0 + 50, 10, "b", Set.of())).isEqualTo(1);
        assertThat(log.find(b.id())).isEmpty();
        assertThat(log.find(a.id())).isPresent();
    }

    @Test
    void purge_deletes_terminal_messages_ended_and_due_before_the_cutoff_with_their_log_rows() {
        Message old = stored(aMessage().bizKey("old").createdAt(T0).due(T0 + 10).build());
        Message recent = stored(aMessage().bizKey("recent").createdAt(T0).due(T0 + 10).build());
        Message cancelledEarly = stored(aMessage().bizKey("cancelled").createdAt(T0).due(T0 + 5_000).build());
        Message pending = stored(aMessage().bizKey("pending").createdAt(T0).due(T0 + 10).build());
        log.apply(List.of(Transition.of(old.id(), WAIT_PUT, DELETED, T0 + 20, BUCKET),
                Transition.of(recent.id(), WAIT_PUT, DELETED, T0 + 100, BUCKET),
                Transition.of(cancelledEarly.id(), WAIT_PUT, DELETED, T0 + 20, BUCKET)));

        assertThat(log.purgeTerminal(T0 + 50, 10, null, Set.of())).isEqualTo(1);
        assertThat(log.find(old.id())).isEmpty();
        assertThat(log.history(old.id())).isEmpty();
        assertThat(log.find(recent.id())).isPresent();
        assertThat(log.purgeTerminal(T0 + 1_000, 10, null, Set.of())).isEqualTo(1);
        assertThat(log.find(cancelledEarly.id())).isPresent();
        assertThat(log.purgeTerminal(T0 + 5_001, 10, null, Set.of())).isEqualTo(1);
        assertThat(log.history(cancelledEarly.id())).isEmpty();
        assertThat(log.purgeTerminal(T0 + 9_000, 10, null, Set.of())).isZero();
        assertThat(log.find(pending.id())).isPresent();
        assertThat(log.insert(List.of(message("order", "old")))).hasSize(1);
    }

    @Test
    void search_answers_matching_messages_newest_first_in_keyset_pages() {
        Message a = stored(aMessage().topic("order").bizKey("k-1").createdAt(T0).due(T0 + 100).build());
        Message b = stored(aMessage().topic("order").createdAt(T0 + 10).due(T0 + 200).build());
        Message c = stored(aMessage().topic("mail").bizKey("k-1").createdAt(T0 + 20).due(T0 + 300).build());
        Message d = stored(aMessage().topic("order").createdAt(T0 + 30).due(T0 + 400).build());
        log.apply(List.of(Transition.of(d.id(), WAIT_PUT, DELETED, T0 + 40, BUCKET)));
        MessageQuery order = query("order", Set.of(), null, List.of(), null, null, null, true);

        assertThat(ids(log.search(order, 2))).containsExactly(d.id(), b.id());
        assertThat(ids(log.search(order.after(b.id()), 2))).containsExactly(a.id());
        assertThat(ids(log.search(order.after(a.id()), 2))).isEmpty();
        assertThat(ids(log.search(query("order", Set.of(WAIT_PUT), null, List.of(), null, null, null, true), 9)))
                .containsExactly(b.id(), a.id());
        assertThat(ids(log.search(query(null, Set.of(), "k-1", List.of(), null, null, null, true), 9)))
                .containsExactly(c.id(), a.id());
        assertThat(ids(log.search(query(null, Set.of(), null, List.of(a.id(), d.id()), null, null, null, true), 9)))
                .containsExactly(d.id(), a.id());
        assertThat(ids(log.search(query(null, Set.of(), null, List.of(), T0 + 10, T0 + 30, null, true), 9)))
                .containsExactly(c.id(), b.id());
        assertThat(ids(log.search(query(null, Set.of(), null, List.of(), null, null, T0 + 300, false), 9)))
                .containsExactly(a.id(), b.id());
        assertThat(ids(log.search(new MessageQuery(null, Set.of(), null, List.of(), null, null, T0 + 200, null, false,
                MessageQuery.START), 9))).containsExactly(c.id(), d.id());
    }

    @Test
    void apply_where_still_moves_and_logs_only_the_messages_still_in_their_from_status() {
        Message dead = stored(message("order", null));
        Message requeued = stored(message("order", null));
        for (Message m : List.of(dead, requeued)) {
            log.apply(List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                    Transition.of(m.id(), DELAY, READY, T0 + 1, BUCKET),
                    Transition.of(m.id(), READY, RESERVED, T0 + 1, BUCKET).withAttempts(3),
                    Transition.of(m.id(), RESERVED, DEAD, T0 + 1, BUCKET)));
        }
        log.apply(List.of(Transition.of(requeued.id(), DEAD, WAIT_PUT, T0 + 2, BUCKET)));

        List<Long> moved = log.applyWhereStill(Stream.of(dead, requeued).map(m -> Transition.of(m.id(), DEAD,
                WAIT_PUT, T0 + 3, BUCKET).withAttempts(0).withDueTime(T0 + 3).withNote("requeue by ops")).toList());

        assertThat(moved).containsExactly(dead.id());
        StoredMessage row = log.find(dead.id()).orElseThrow();
        assertThat(List.of(row.status(), row.message().attempts(), row.message().dueTime(), row.updateTime()))
                .containsExactly(WAIT_PUT, 0, T0 + 3, T0 + 3);
        assertThat(log.history(dead.id())).last().extracting(Transition::note).isEqualTo("requeue by ops");
        assertThat(log.history(requeued.id())).extracting(Transition::note).doesNotContain("requeue by ops");
        assertThat(log.find(requeued.id()).orElseThrow().updateTime()).isEqualTo(T0 + 2);
        assertThat(log.applyWhereStill(List.of())).isEmpty();
    }

    /**
     * A bulk requeue's page: 1 200 messages (more than one statement's ids), DEAD and EXPIRED, each moved to READY and
     * logged with the page's note, except those that moved meanwhile (every tenth, requeued by someone else) or died
     * in the very millisecond of the requeue (every tenth but five): each keeps its row and gets no log row.
     */
    @Test
    void apply_where_still_moves_a_whole_page_and_leaves_each_message_that_moved_meanwhile() {
        List<Message> page = Stream.generate(() -> message("bulk", null)).limit(1_200).toList();
        log.insert(page);
        List<Transition> died = new ArrayList<>();
        List<Transition> meanwhile = new ArrayList<>();
        for (int i = 0; i < page.size(); i++) {
            MessageStatus end = i % 2 == 0 ? DEAD : EXPIRED;
            died.add(Transition.of(page.get(i).id(), end == DEAD ? RESERVED : WAIT_PUT, end,
                    i % 10 == 5 ? T0 + 3 : T0 + 1, BUCKET));
            if (i % 10 == 0) {
                meanwhile.add(Transition.of(page.get(i).id(), end, WAIT_PUT, T0 + 2, BUCKET).withNote("single"));
            }
        }
        log.apply(died);
        log.apply(meanwhile);

        List<Transition> requeue = died.stream().map(t -> Transition.of(t.messageId(), t.to(), READY, T0 + 3, BUCKET)
                .withAttempts(0).withDueTime(T0 + 3).withNote("requeue by ops")).toList();
        List<Long> moved = log.applyWhereStill(requeue);

        assertThat(moved).containsExactlyElementsOf(IntStream.range(0, page.size()).filter(i -> i % 5 != 0)
                .mapToObj(i -> page.get(i).id()).toList());
        for (int i = 0; i < page.size(); i++) {
            StoredMessage row = log.find(page.get(i).id()).orElseThrow();
            List<Transition> history = log.history(page.get(i).id());
            if (i % 5 == 0) {
                assertThat(List.of(row.status(), row.updateTime())).containsExactly(
                        i % 10 == 0 ? WAIT_PUT : died.get(i).to(), i % 10 == 0 ? T0 + 2 : T0 + 3);
                assertThat(history).extracting(Transition::note).doesNotContain("requeue by ops");
            } else {
                assertThat(List.of(row.status(), row.message().attempts(), row.message().dueTime(), row.updateTime()))
                        .containsExactly(READY, 0, T0 + 3, T0 + 3);
                assertThat(history).last().isEqualTo(asLogged(requeue.get(i)));
            }
        }
    }

    private static MessageQuery query(String topic, Set<MessageStatus> statuses, String bizKey, List<Long> ids,
                                      Long createdFrom, Long createdTo, Long dueBefore, boolean newestFirst) {
        return new MessageQuery(topic, statuses, bizKey, ids, createdFrom, createdTo, null, dueBefore, newestFirst,
                MessageQuery.START);
    }

    @Test
    void a_business_key_finds_its_message() {
        Message keyed = stored(message("order", "o-77"));

        assertThat(log.findIdByKey("order", "o-77")).contains(keyed.id());
        assertThat(log.findIdByKey("order", "o-78")).isEmpty();
        assertThat(log.findIdByKey("mail", "o-77")).isEmpty();
    }

    @Test
    void a_business_key_alone_finds_its_messages_in_every_topic_whatever_their_status() {
        Message order = stored(message("order", "o-77"));
        Message mail = stored(message("mail", "o-77"));
        stored(message("order", "o-7"));
        stored(message("sms", null));
        log.apply(List.of(Transition.of(mail.id(), WAIT_PUT, DELETED, T0 + 1, BUCKET)));

        assertThat(log.findByKey("o-77")).extracting(s -> s.message().id() + " " + s.status())
                .containsExactlyInAnyOrder(order.id() + " WAIT_PUT", mail.id() + " DELETED");
        assertThat(log.findByKey("o-78")).isEmpty();
        assertThat(log.findByKey("O-77")).as("keys compare as binary").isEmpty();
    }

    @Test
    void replace_changes_body_and_due_time_of_a_pending_message_only() {
        Message pending = stored(message("order", "p"));
        Message done = stored(message("order", "d"));
        log.apply(List.of(Transition.of(pending.id(), WAIT_PUT, DELAY, T0 + 1, BUCKET),
                Transition.of(done.id(), WAIT_PUT, DELETED, T0 + 1, BUCKET)));
        Transition replaced = Transition.of(pending.id(), DELAY, DELAY, T0 + 2, BUCKET).withNote("replaced");

        assertThat(log.replace(pending.id(), "new", T0 + 9_000, replaced)).isTrue();
        assertThat(log.replace(done.id(), "new", T0 + 9_000,
                Transition.of(done.id(), DELAY, DELAY, T0 + 2, BUCKET))).isFalse();

        StoredMessage row = log.find(pending.id()).orElseThrow();
        assertThat(row.message().body()).isEqualTo("new");
        assertThat(row.message().dueTime()).isEqualTo(T0 + 9_000);
        assertThat(row.message().delayMs()).isEqualTo(9_000);
        assertThat(row.status()).isEqualTo(DELAY);
        assertThat(log.history(pending.id())).last().isEqualTo(asLogged(replaced));
        assertThat(log.find(done.id()).orElseThrow().message().body()).isEqualTo(done.body());
        assertThat(log.history(done.id())).hasSize(2);
    }

    private static List<Long> ids(List<StoredMessage> rows) {
        return rows.stream().map(r -> r.message().id()).toList();
    }

    protected static long nextId() {
        return ids.incrementAndGet();
    }

    protected static Message message(String topic, String bizKey) {
        return aMessage().topic(topic).bizKey(bizKey).body("body of " + bizKey).createdAt(T0).due(T0 + 5_000).build();
    }

    private Message stored(Message m) {
        assertThat(log.insert(List.of(m))).containsExactly(m.id());
        return m;
    }

    private String statusAndUpdate(Message m) {
        StoredMessage now = log.find(m.id()).orElseThrow();
        return now.status() + "@" + now.updateTime();
    }

    private Transition asLogged(Transition t) {
        return new Transition(t.messageId(), t.from(), t.to(), t.changedAt(), t.bucket(), null, null, t.thread(),
                t.note(), loggedHost());
    }

    private static String currentThread() {
        return Thread.currentThread().getName();
    }

    private static List<Message> racingBatch(String prefix, int keys, Random random) {
        List<Message> batch = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            batch.add(message("race", prefix + "-" + k));
        }
        Collections.shuffle(batch, random);
        batch.add(random.nextInt(batch.size()), message("race", null));
        return batch;
    }

    private List<List<Long>> insertAtOnce(ExecutorService pool, List<List<Message>> batches) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Long>>> futures = new ArrayList<>();
        for (List<Message> batch : batches) {
            futures.add(pool.submit(() -> {
                start.await();
                return log.insert(batch);
            }));
        }
        start.countDown();
        List<List<Long>> answers = new ArrayList<>();
        for (Future<List<Long>> future : futures) {
            answers.add(future.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    private void assertOneRowPerKey(List<List<Message>> batches, List<List<Long>> answers) {
        List<Long> keyHolders = new ArrayList<>();
        for (int t = 0; t < batches.size(); t++) {
            List<Message> batch = batches.get(t);
            for (int i = 0; i < batch.size(); i++) {
                Message m = batch.get(i);
                long answered = answers.get(t).get(i);
                if (m.bizKey() == null) {
                    assertThat(answered).isEqualTo(m.id());
                    assertThat(log.find(m.id())).isPresent();
                    continue;
                }
                StoredMessage holder = log.find(answered).orElseThrow();
                assertThat(holder.message().bizKey()).isEqualTo(m.bizKey());
                assertThat(log.find(m.id()).isPresent()).isEqualTo(answered == m.id());
                if (answered == m.id()) {
                    keyHolders.add(answered);
                }
            }
        }
        assertThat(keyHolders).doesNotHaveDuplicates().hasSize(batches.get(0).size() - 1);
    }
}
