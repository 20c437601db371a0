package io.sdmq.core.engine;

import io.sdmq.common.InvalidRequestException;
import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import io.sdmq.core.BulkFilter;
import io.sdmq.core.BulkResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The bulk actions on the engine's in-memory ports, driven step by step. */
class BulkActionsTest {
    private final EngineFixture fixture = new EngineFixture(4, 3, List.of(1_000L), 1_000);

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void run_now_makes_a_cold_message_due_now_as_well_as_a_warm_one_and_a_repeat_changes_nothing() {
        long warm = fixture.push("order", null, 60_000);
        long cold = fixture.push("order", null, Duration.ofHours(5).toMillis());

        BulkResult result = fixture.engine.admin().runNow(topic("order"), "ops");
        fixture.engine.runOnce();

        assertThat(result).isEqualTo(new BulkResult(2, 2));
        assertThat(fixture.popNow("order")).extracting(Message::id).containsExactlyInAnyOrder(warm, cold);
        assertThat(fixture.engine.admin().runNow(topic("order"), "ops")).isEqualTo(new BulkResult(0, 0));
        assertThat(fixture.messageLog.history(cold)).extracting(Transition::note).contains("run-now by ops");
    }

    @Test
    void requeue_brings_back_dead_messages_beyond_one_page_and_leaves_a_finished_one_alone() {
        List<Long> dead = new ArrayList<>();
        for (int i = 0; i < BulkActions.PAGE + 10; i++) {
            dead.add(fixture.push("mail", null, 0));
        }
        fixture.engine.runOnce();
        List<Message> popped = new ArrayList<>();
        while (popped.size() < dead.size()) {
            popped.addAll(fixture.popNow("mail"));
        }
        popped.forEach(m -> fixture.engine.consumer().nackAsDead(m.id()));
        await().atMost(Duration.ofSeconds(5)).until(() -> dead.stream()
                .allMatch(id -> fixture.messageLog.find(id).orElseThrow().status() == DEAD));

        BulkResult result = fixture.engine.admin().requeue(new BulkFilter(null, null, null, null, null, true), "ops");
        // the requeue is timed after the deaths, which the stopped clock made in its very millisecond
        fixture.advance(1);

        assertThat(result).isEqualTo(new BulkResult(dead.size(), dead.size()));
        List<Message> again = new ArrayList<>();
        while (again.size() < dead.size()) {
            again.addAll(fixture.popNow("mail"));
        }
        assertThat(again).extracting(Message::id).containsExactlyInAnyOrderElementsOf(dead);
        again.forEach(m -> fixture.engine.consumer().finish(m.id()));
        assertThat(fixture.engine.admin().requeue(new BulkFilter(null, null, null, null, null, true), "ops"))
                .isEqualTo(new BulkResult(0, 0));
        assertThat(fixture.messageLog.find(dead.get(0)).orElseThrow().status()).isEqualTo(FINISHED);
    }

    @Test
    void delete_forgets_pending_and_reserved_messages_but_not_one_finished_before() {
        long pending = fixture.push("sms", null, 60_000);
        long reserved = fixture.push("sms", null, 0);
        long finished = fixture.push("sms", null, 0);
        fixture.engine.runOnce();
        List<Message> popped = fixture.popNow("sms");
        assertThat(popped).extracting(Message::id).containsExactlyInAnyOrder(reserved, finished);
        fixture.engine.consumer().finish(finished);

        BulkResult result = fixture.engine.admin().delete(topic("sms"), "ops");

        assertThat(result).isEqualTo(new BulkResult(2, 2));
        assertThat(fixture.messageLog.find(pending).orElseThrow().status()).isEqualTo(DELETED);
        assertThat(fixture.messageLog.find(reserved).orElseThrow().status()).isEqualTo(DELETED);
        assertThat(fixture.messageLog.find(finished).orElseThrow().status()).isEqualTo(FINISHED);
        assertThat(fixture.engine.admin().purge("sms", "ops")).isEqualTo(new BulkResult(0, 0));
    }

    @Test
    void delete_discards_dead_messages_in_mysql_and_leaves_one_requeued_meanwhile_alone() {
        long dead = fixture.push("fax", null, 0);
        long requeued = fixture.push("fax", null, 0);
        fixture.engine.runOnce();
        fixture.popNow("fax").forEach(m -> fixture.engine.consumer().nackAsDead(m.id()));
        await().atMost(Duration.ofSeconds(5)).until(() -> Stream.of(dead, requeued)
                .allMatch(id -> fixture.messageLog.find(id).orElseThrow().status() == DEAD));
        fixture.advance(1);
        fixture.engine.admin().requeue(new BulkFilter("fax", List.of(Long.toString(requeued)), null, null, null, null),
                "ops");
        fixture.advance(1);

        BulkResult result = fixture.engine.admin().delete(new BulkFilter("fax", null, null, "DEAD", null, null), "ops");

        assertThat(result).isEqualTo(new BulkResult(1, 1));
        assertThat(fixture.messageLog.find(dead).orElseThrow().status()).isEqualTo(DELETED);
        assertThat(fixture.messageLog.history(dead)).last().extracting(Transition::from, Transition::to,
                Transition::note).containsExactly(DEAD, DELETED, "delete by ops");
        assertThat(fixture.messageLog.find(requeued).orElseThrow().status()).isNotIn(DEAD, DELETED);
        assertThat(fixture.popNow("fax")).extracting(Message::id).containsExactly(requeued);
        assertThat(fixture.engine.admin().delete(new BulkFilter("fax", null, null, "DEAD", null, null), "ops"))
                .isEqualTo(new BulkResult(0, 0));
    }

    @Test
    void a_filter_must_say_all_to_match_everything_and_not_otherwise() {
        fixture.push("order", null, 60_000);

        assertThatThrownBy(() -> fixture.engine.admin().delete(new BulkFilter(null, null, null, null, null, null),
                "ops")).isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("all: must be true");
        assertThatThrownBy(() -> fixture.engine.admin().delete(new BulkFilter("order", null, null, null, null, true),
                "ops")).isInstanceOf(InvalidRequestException.class).hasMessageStartingWith("all: must be absent");
        assertThat(fixture.engine.admin().runNow(new BulkFilter(null, null, null, null, null, true), "ops"))
                .isEqualTo(new BulkResult(1, 1));
    }

    private static BulkFilter topic(String topic) {
        return new BulkFilter(topic, null, null, null, null, null);
    }
}
