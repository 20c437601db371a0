package io.sdmq.core.engine;

import io.sdmq.common.Buckets;
import io.sdmq.common.Message;
import io.sdmq.common.MessageNotFoundException;
import io.sdmq.common.MessageStateException;
import io.sdmq.common.PushRequest;
import io.sdmq.common.PushRules;
import io.sdmq.common.RestoreInProgressException;
import io.sdmq.common.Transition;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import io.sdmq.core.Producer.OnDuplicate;
import io.sdmq.core.EngineSettings;
import io.sdmq.core.RecoverySettings;
import io.sdmq.core.RestoreCounts;
import io.sdmq.core.RestoreOutcome;
import io.sdmq.core.SettableClock;
import io.sdmq.core.TopicSettings;
import io.sdmq.core.spi.InMemoryMessageLog;
import io.sdmq.core.spi.InMemoryReadySignal;
import io.sdmq.core.spi.InMemoryScheduleStore;
import io.sdmq.core.spi.MessageLog;
import io.sdmq.core.spi.Outage;
import io.sdmq.core.spi.SchedulePorts;
import io.sdmq.core.spi.TopicStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.EXPIRED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** Restore, reconciler and outages, driven step by step with a settable clock. */
class RecoveryTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long TWO_HOURS = Duration.ofHours(2).toMillis();
    /** A cold message is warmed this long before it is due: half the cold window. */
    private static final long LEAD = EngineFixture.COLD_AFTER.toMillis() / 2;

    private final SettableClock clock = new SettableClock(T0);
    private final InMemoryScheduleStore redis = new InMemoryScheduleStore(4, List.of(0L), EngineFixture.COLD_AFTER);
    private final InMemoryMessageLog mysql = new InMemoryMessageLog();
    private final Outage redisOutage = new Outage();
    private final Outage mysqlOutage = new Outage();
    private final AtomicLong ids = new AtomicLong(5_000);
    private static final RecoverySettings RECOVERY = RecoverySettings.builder().build();
    private Engine engine;

    @BeforeEach
    void startEngine() {
        startEngine(EngineFixture.COLD_AFTER);
    }

    private void startEngine(Duration coldAfter) {
        startEngine(coldAfter, redisOutage.wrap(SchedulePorts.class, redis));
    }

    private void startEngine(Duration coldAfter, SchedulePorts store) {
        redis.coldAfter(coldAfter);
        EngineSettings settings = EngineFixture.settings(3, List.of(0L)).coldAfter(coldAfter)
                .writeTimeout(Duration.ofSeconds(2)).build();
        engine = EngineFixture.engine(settings, store, mysqlOutage.wrap(MessageLog.class, mysql),
                new InMemoryReadySignal(), ids::incrementAndGet, clock);
        engine.startManual();
    }

    @AfterEach
    void stopEngine() {
        engine.close();
    }

    @Test
    void restore_puts_back_what_redis_lost_and_leaves_what_it_holds() {
        long a = push(10_000);
        long b = push(20_000);
        redis.loseEverything();
        long c = push(5_000);

        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(3, 2, 1, 0, 0));
        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(3, 0, 3, 0, 0));
        clock.advance(20_000);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    void with_expire_an_overdue_message_comes_back_due_now() {
        long a = push(1_000);
        redis.loseEverything();
        clock.advance(5_000);

        assertThat(engine.admin().restore(true).restored()).isEqualTo(1);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(a);
    }

    @Test
    void without_expire_an_overdue_message_ends_expired_and_is_never_delivered() {
        long overdue = push(1_000);
        long later = push(60_000);
        redis.loseEverything();
        clock.advance(5_000);

        assertThat(engine.admin().restore(false)).isEqualTo(new RestoreCounts(2, 1, 0, 1, 0));
        assertThat(mysql.find(overdue).orElseThrow().status()).isEqualTo(EXPIRED);
        clock.advance(60_000);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(later);
    }

    @Test
    void a_reserved_message_comes_back_due_now_and_a_finished_one_never() {
        long reserved = push(0);
        long finished = push(0);
        engine.runOnce();
        assertThat(popNow()).hasSize(2);
        engine.consumer().finish(finished);
        await().until(() -> mysql.find(reserved).orElseThrow().status() == RESERVED);
        redis.loseEverything();

        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(1, 1, 0, 0, 0));
        engine.runOnce();
        List<Message> again = popNow();
        assertThat(again).extracting(Message::id).containsExactly(reserved);
        assertThat(again.get(0).attempts()).isEqualTo(2);
    }

    @Test
    void a_restore_started_in_the_background_tells_its_counts_after_each_page_and_refuses_a_second_meanwhile()
            throws Exception {
        engine.close();
        EngineSettings settings = EngineFixture.settings(3, List.of(0L)).recovery(r -> r.restorePage(2)).build();
        engine = EngineFixture.engine(settings, redisOutage.wrap(SchedulePorts.class, redis),
                mysqlOutage.wrap(MessageLog.class, mysql), new InMemoryReadySignal(), ids::incrementAndGet, clock);
        engine.startManual();
        for (int i = 0; i < 5; i++) {
            push(60_000);
        }
        redis.loseEverything();
        List<RestoreCounts> told = new CopyOnWriteArrayList<>();
        CountDownLatch secondPageTold = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);

        CompletableFuture<RestoreCounts> done = engine.admin().startRestore(true, counts -> {
            told.add(counts);
            if (told.size() == 2) {
                secondPageTold.countDown();
                awaitQuietly(goOn);
            }
        });

        assertThat(secondPageTold.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> engine.admin().startRestore(true, counts -> { }))
                .isInstanceOf(RestoreInProgressException.class);
        assertThatThrownBy(() -> engine.admin().restore(true)).isInstanceOf(RestoreInProgressException.class);
        goOn.countDown();
        assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo(new RestoreCounts(5, 5, 0, 0, 0));
        assertThat(told).extracting(RestoreCounts::scanned).containsExactly(0L, 2L, 4L, 5L);
        assertThat(told.get(0)).isEqualTo(new RestoreCounts(0, 0, 0, 0, 0));
        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(5, 0, 5, 0, 0));
    }

    @Test
    void a_background_restore_that_fails_completes_its_future_with_the_failure_and_the_next_one_runs() {
        push(60_000);
        redis.loseEverything();
        mysqlOutage.begin();

        CompletableFuture<RestoreCounts> failed = engine.admin().startRestore(true, counts -> { });

        assertThatThrownBy(failed::join).hasRootCauseMessage("MessageLog is down (test outage)");
        mysqlOutage.end();
        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(1, 1, 0, 0, 0));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void restore_job_answers_per_message() {
        long lost = push(60_000);
        redis.loseEverything();
        long done = push(0);
        engine.producer().delete(done);

        assertThat(engine.admin().restoreMessage(lost, true)).isEqualTo(RestoreOutcome.RESTORED);
        assertThat(engine.admin().restoreMessage(lost, true)).isEqualTo(RestoreOutcome.ALREADY_PRESENT);
        assertThatThrownBy(() -> engine.admin().restoreMessage(77, true)).isInstanceOf(MessageNotFoundException.class);
        assertThatThrownBy(() -> engine.admin().restoreMessage(done, true)).isInstanceOf(MessageStateException.class);
    }

    @Test
    void a_batch_finish_across_buckets_while_redis_is_down_fails_and_finishes_nothing() {
        List<Long> popped = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            popped.add(push(0));
        }
        engine.runOnce();
        assertThat(popNow()).hasSize(8);
        assertThat(popped.stream().map(id -> Buckets.of(id, redis.buckets())).distinct().count()).isGreaterThan(1);

        redisOutage.begin();
        assertThatThrownBy(() -> engine.consumer().finishAll(popped)).hasMessageContaining("test outage");
        redisOutage.end();

        assertThat(popped).allSatisfy(id -> assertThat(mysql.history(id)).extracting(Transition::to)
                .doesNotContain(FINISHED));
        assertThat(engine.consumer().finishAll(popped)).allSatisfy(result -> assertThat(result).isEmpty());
        assertThat(popped).allSatisfy(id -> assertThat(mysql.find(id).orElseThrow().status()).isEqualTo(FINISHED));
    }

    @Test
    void a_batch_finish_that_loses_redis_midway_records_the_finishes_redis_made_and_redelivers_only_the_rest() {
        List<Long> popped = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            popped.add(push(0));
        }
        engine.runOnce();
        assertThat(popNow()).hasSize(8);
        Map<Integer, List<Integer>> byBucket = Buckets.positions(popped, redis.buckets());
        assertThat(byBucket).hasSizeGreaterThan(1);
        List<Long> firstBucket = byBucket.values().iterator().next().stream().map(popped::get).toList();
        List<Long> rest = popped.stream().filter(id -> !firstBucket.contains(id)).toList();

        redisOutage.beginAfter(1);
        assertThatThrownBy(() -> engine.consumer().finishAll(popped)).hasMessageContaining("test outage");
        redisOutage.end();

        assertThat(firstBucket).allSatisfy(id -> assertThat(mysql.find(id).orElseThrow().status()).isEqualTo(FINISHED));
        assertThat(rest).allSatisfy(id -> assertThat(mysql.find(id).orElseThrow().status()).isEqualTo(RESERVED));
        clock.advance(30_001 + RECOVERY.grace().toMillis());
        engine.runOnce();
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactlyInAnyOrderElementsOf(rest);
    }

    @Test
    void a_push_while_redis_is_down_succeeds_and_the_reconciler_schedules_it_once_redis_is_back() {
        redisOutage.begin();
        long id = push(0);
        assertThat(mysql.find(id).orElseThrow().status()).isEqualTo(WAIT_PUT);

        redisOutage.end();
        clock.advance(RECOVERY.waitPutAge().toMillis() + 1);
        engine.runOnce();

        assertThat(popNow()).extracting(Message::id).containsExactly(id);
        await().untilAsserted(() -> assertThat(mysql.history(id)).extracting(Transition::to)
                .containsExactly(WAIT_PUT, DELAY, READY, RESERVED));
    }

    @Test
    void the_reconciler_puts_back_an_overdue_message_redis_lost() {
        long id = push(1_000);
        await().until(() -> mysql.find(id).orElseThrow().status() == DELAY);
        redis.loseEverything();
        clock.advance(1_001 + RECOVERY.grace().toMillis());

        engine.runOnce();

        assertThat(popNow()).extracting(Message::id).containsExactly(id);
    }

    /**
     * A bulk requeue commits its messages READY, due now, before Redis has them: one Redis refuses (or an instance
     * killed in between never sent) is put back by the reconciler once overdue by its grace, as any message Redis lost.
     */
    @Test
    void a_bulk_requeue_that_redis_refuses_is_delivered_once_the_reconciler_finds_it_overdue() {
        redisOutage.begin();
        long id = push(0);
        // as a restore without expire leaves a message Redis lost
        mysql.apply(List.of(Transition.of(id, WAIT_PUT, EXPIRED, T0, "b")));

        BulkResult result = engine.admin().requeue(new BulkFilter("order", null, null, null, null, null), "ops");
        redisOutage.end();

        assertThat(result).isEqualTo(new BulkResult(1, 1));
        assertThat(mysql.find(id).orElseThrow().status()).isEqualTo(READY);
        clock.advance(RECOVERY.grace().toMillis());
        engine.runOnce();
        assertThat(popNow()).as("not yet overdue by the grace: nobody put it back").isEmpty();
        clock.advance(1_001);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(id);
        assertThat(mysql.history(id)).extracting(Transition::note).containsOnlyOnce("requeue by ops");
    }

    @Test
    void a_push_while_mysql_is_down_answers_unavailable_and_writes_nothing_to_redis() {
        mysqlOutage.begin();

        assertThatThrownBy(() -> push(0)).isInstanceOf(UnavailableException.class);
        for (int b = 0; b < redis.buckets(); b++) {
            assertThat(redis.isEmpty(b)).isTrue();
        }
        mysqlOutage.end();
        assertThat(push(0)).isPositive();
    }

    @Test
    void retention_purges_terminal_messages_ended_and_due_a_retention_ago_only() {
        long old = push(60_000);
        engine.producer().delete(old);
        long pending = push(60_000);
        PurgeOldMessages purge = new PurgeOldMessages(mysql, RECOVERY, topics(Map.of()));
        long retention = Duration.ofDays(7).toMillis();

        assertThat(purge.runOnce(T0 + retention + 1)).isEqualTo(T0 + retention + 1 + 60_000);
        assertThat(mysql.find(old)).as("deleted a retention ago, due since less").isPresent();
        purge.runOnce(T0 + retention + 60_001);
        assertThat(mysql.find(old)).isEmpty();
        assertThat(mysql.find(pending)).isPresent();
    }

    @Test
    void a_topic_with_a_retention_of_its_own_is_purged_by_it_and_left_out_of_the_servers() {
        long kept = engine.producer().push(new PushRequest("audit", null, "body", 60_000L, null, null, null, null,
                null), OnDuplicate.IGNORE).id();
        long brief = engine.producer().push(new PushRequest("brief", null, "body", 60_000L, null, null, null, null,
                null), OnDuplicate.IGNORE).id();
        long other = push(60_000);
        List.of(kept, brief, other).forEach(engine.producer()::delete);
        long day = Duration.ofDays(1).toMillis();
        PurgeOldMessages purge = new PurgeOldMessages(mysql, RECOVERY, topics(Map.of(
                "audit", new TopicSettings(null, null, null, null, null, 30 * day, null, null, false, null),
                "brief", new TopicSettings(null, null, null, null, null, day, null, null, false, null))));

        purge.runOnce(T0 + 60_000 + day + 1);
        assertThat(mysql.find(brief)).as("a day, its own retention").isEmpty();
        assertThat(mysql.find(other)).as("the server's seven days").isPresent();
        purge.runOnce(T0 + 60_000 + 7 * day + 1);
        assertThat(mysql.find(other)).isEmpty();
        assertThat(mysql.find(kept)).as("thirty days, its own, beyond the server's seven").isPresent();
        purge.runOnce(T0 + 60_000 + 30 * day + 1);
        assertThat(mysql.find(kept)).isEmpty();
    }

    /** The topics' settings as an engine would have loaded them. */
    private static TopicRules topics(Map<String, TopicSettings> settings) {
        TopicStore store = (TopicStore) Proxy.newProxyInstance(TopicStore.class.getClassLoader(),
                new Class<?>[] {TopicStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("all")) {
                        return settings;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        TopicRules rules = new TopicRules(store, EngineSettings.builder().build().pushRules());
        rules.reload();
        return rules;
    }

    @Test
    void a_backlog_larger_than_a_pass_is_purged_in_passes_that_follow_at_once() {
        for (int i = 0; i < 101; i++) {
            engine.producer().delete(push(0));
        }
        RecoverySettings oneAtATime = RecoverySettings.builder().purgeBatch(1).build();
        PurgeOldMessages purge = new PurgeOldMessages(mysql, oneAtATime, topics(Map.of()));
        long now = T0 + Duration.ofDays(7).toMillis() + 1;

        assertThat(purge.runOnce(now)).as("100 batches of one, more left").isEqualTo(now);
        assertThat(purge.runOnce(now)).as("the last one").isEqualTo(now + 60_000);
        assertThat(purge.runOnce(now)).as("nothing left").isEqualTo(now + 60_000);
        assertThat(mysql.purgeTerminal(now, 1, null, Set.of())).isZero();
    }

    @Test
    void a_message_due_beyond_the_cold_window_waits_in_mysql_and_is_delivered_on_time() {
        long id = push(TWO_HOURS);
        assertThat(redis.coldIds()).containsExactly(id);

        at(T0 + TWO_HOURS - LEAD - 1);
        engine.runOnce();
        assertThat(redis.coldIds()).as("not yet within the lead").containsExactly(id);
        at(T0 + TWO_HOURS - LEAD);
        engine.runOnce();
        assertThat(redis.coldIds()).isEmpty();
        assertThat(redis.holds(Buckets.of(id, redis.buckets()), id)).isTrue();
        at(T0 + TWO_HOURS - 1);
        engine.runOnce();
        assertThat(popNow()).isEmpty();
        at(T0 + TWO_HOURS);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id, Message::body).containsExactly(tuple(id, "body"));
    }

    @Test
    void a_cold_message_waits_out_a_mysql_outage_and_is_warmed_once_mysql_is_back() {
        long id = push(TWO_HOURS);
        at(T0 + TWO_HOURS - LEAD);
        mysqlOutage.begin();

        assertThatThrownBy(engine::runOnce).hasMessageContaining("MessageLog is down");
        assertThat(redis.coldIds()).containsExactly(id);

        mysqlOutage.end();
        at(T0 + TWO_HOURS);
        engine.runOnce();
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(id);
    }

    @Test
    void a_cold_message_can_be_rescheduled_replaced_and_deleted() {
        long rescheduled = push(TWO_HOURS);
        PushRequest keyed = new PushRequest("order", "k-1", "first", TWO_HOURS, null, null, null, null, null);
        long replaced = engine.producer().push(keyed, OnDuplicate.IGNORE).id();
        long deleted = push(TWO_HOURS);
        assertThat(redis.coldIds()).containsExactlyInAnyOrder(rescheduled, replaced, deleted);

        engine.producer().reschedule(rescheduled, 5_000L, null);
        engine.producer().push(new PushRequest("order", "k-1", "second", 3_000L, null, null, null, null, null),
                OnDuplicate.REPLACE);
        engine.producer().delete(deleted);

        assertThat(redis.coldIds()).isEmpty();
        assertThat(mysql.find(deleted).orElseThrow().status()).isEqualTo(DELETED);
        clock.advance(5_000);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id, Message::body)
                .containsExactlyInAnyOrder(tuple(replaced, "second"), tuple(rescheduled, "body"));
        at(T0 + TWO_HOURS);
        engine.runOnce();
        assertThat(popNow()).isEmpty();
    }

    @Test
    void a_reschedule_that_the_warmer_overtakes_still_reschedules() {
        engine.close();
        // the warmer brings the message in right after the reschedule found it cold, before the reschedule warms it
        SchedulePorts overtaken = (SchedulePorts) Proxy.newProxyInstance(SchedulePorts.class.getClassLoader(),
                new Class<?>[] {SchedulePorts.class}, (self, method, args) -> {
                    Object result = method.invoke(redis, args);
                    if (method.getName().equals("reschedule") && ((Optional<?>) result).isEmpty()) {
                        redis.warm((int) args[0], List.of(mysql.find((long) args[1]).orElseThrow().message()));
                    }
                    return result;
                });
        startEngine(EngineFixture.COLD_AFTER, overtaken);
        long id = push(TWO_HOURS);

        assertThat(engine.producer().reschedule(id, 5_000L, null)).isEqualTo(T0 + 5_000);

        at(T0 + 5_000);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(id);
    }

    @Test
    void a_bucket_the_warmer_cannot_warm_holds_up_no_other() {
        List<Long> inBucketZero = inBucketZero(pushToEveryBucketFailingInBucketZero("warm", TWO_HOURS));
        at(T0 + TWO_HOURS - LEAD);

        assertThatThrownBy(engine::runOnce).hasMessageContaining("bucket 0 cannot warm");

        assertThat(redis.coldIds()).containsExactlyInAnyOrderElementsOf(inBucketZero);
    }

    @Test
    void a_bucket_the_scheduler_cannot_move_holds_up_no_other() {
        List<Long> pushed = pushToEveryBucketFailingInBucketZero("moveDue", 1_000);
        at(T0 + 1_000);

        assertThatThrownBy(engine::runOnce).hasMessageContaining("bucket 0 cannot moveDue");

        List<Long> elsewhere = pushed.stream().filter(id -> !inBucketZero(pushed).contains(id)).toList();
        assertThat(popNow()).extracting(Message::id).containsExactlyInAnyOrderElementsOf(elsewhere);
    }

    @Test
    void a_bucket_that_cannot_pop_holds_up_no_other() {
        List<Long> pushed = pushToEveryBucketFailingInBucketZero("pop", 1_000);
        at(T0 + 1_000);
        engine.runOnce();

        List<Message> popped = popNow();

        List<Long> elsewhere = pushed.stream().filter(id -> !inBucketZero(pushed).contains(id)).toList();
        assertThat(popped).extracting(Message::id).containsExactlyInAnyOrderElementsOf(elsewhere);
        assertThat(redis.readyCount(0, "order")).isEqualTo(inBucketZero(pushed).size());
    }

    /**
     * Restarts the engine on a store whose {@code method} fails for bucket 0, pushes until every bucket holds a
     * message due after {@code delay}, and answers the ids pushed.
     */
    private List<Long> pushToEveryBucketFailingInBucketZero(String method, long delay) {
        engine.close();
        SchedulePorts failingBucketZero = (SchedulePorts) Proxy.newProxyInstance(SchedulePorts.class.getClassLoader(),
                new Class<?>[] {SchedulePorts.class}, (self, called, args) -> {
                    if (called.isDefault()) {
                        return InvocationHandler.invokeDefault(self, called, args);
                    }
                    if (called.getName().equals(method) && (int) args[0] == 0) {
                        throw new IllegalStateException("bucket 0 cannot " + method + " (test)");
                    }
                    return called.invoke(redis, args);
                });
        startEngine(EngineFixture.COLD_AFTER, failingBucketZero);
        List<Long> pushed = new ArrayList<>();
        while (pushed.stream().map(id -> Buckets.of(id, redis.buckets())).distinct().count() < redis.buckets()) {
            pushed.add(push(delay));
        }
        return pushed;
    }

    private List<Long> inBucketZero(List<Long> ids) {
        return ids.stream().filter(id -> Buckets.of(id, redis.buckets()) == 0).toList();
    }

    @Test
    void restore_puts_a_message_due_beyond_the_cold_window_back_cold() {
        long far = push(TWO_HOURS);
        long near = push(10_000);
        redis.loseEverything();

        assertThat(engine.admin().restore(true)).isEqualTo(new RestoreCounts(2, 2, 0, 0, 0));

        assertThat(redis.coldIds()).containsExactly(far);
        at(T0 + 10_000);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(near);
        engine.consumer().finish(near);
        at(T0 + TWO_HOURS - LEAD);
        engine.runOnce();
        at(T0 + TWO_HOURS);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).containsExactly(far);
    }

    @Test
    void with_the_cold_window_turned_off_the_messages_a_former_one_left_cold_are_warmed_at_once() {
        long id = push(TWO_HOURS);
        engine.close();
        startEngine(Duration.ZERO);

        engine.runOnce();

        assertThat(redis.coldIds()).isEmpty();
        assertThat(push(TWO_HOURS)).isPositive();
        assertThat(redis.coldIds()).isEmpty();
        at(T0 + TWO_HOURS);
        engine.runOnce();
        assertThat(popNow()).extracting(Message::id).contains(id).hasSize(2);
    }

    /** Moves the clock to {@code time}. */
    private void at(long time) {
        clock.advance(time - clock.millis());
    }

    private long push(long delay) {
        return engine.producer().push(new PushRequest("order", null, "body", delay, null, null, null, null, null), OnDuplicate.IGNORE).id();
    }

    private List<Message> popNow() {
        return engine.consumer().pop("order", 100, Duration.ZERO, Duration.ZERO).join();
    }
}
