package io.sdmq.core.redis;

import io.sdmq.common.Message;
import io.sdmq.common.UnavailableException;
import io.sdmq.core.spi.Reservations;
import io.sdmq.core.spi.Schedule;
import io.sdmq.core.spi.Schedule.MoveResult;
import io.sdmq.core.spi.Schedule.Moved;
import io.sdmq.core.spi.ScheduleStoreContract;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static io.sdmq.core.spi.MessageBuilder.NOW;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisScheduleStoreIT extends ScheduleStoreContract {
    final StringRedisTemplate redis = template();
    private final List<String> prefixes = new ArrayList<>();
    String prefix;

    /** The Redis under test: a single server here, a cluster in {@link RedisClusterScheduleStoreIT}. */
    StringRedisTemplate template() {
        return TestServices.redisTemplate();
    }

    @Override
    protected Stores newStores(int buckets) {
        prefix = TestServices.freshKeyPrefix();
        prefixes.add(prefix);
        return storesAt(prefix, buckets);
    }

    Stores storesAt(String keyPrefix, int buckets) {
        RedisSchedule schedule = new RedisSchedule(redis, keyPrefix, buckets, Duration.ofMillis(COLD_AFTER_MS));
        return new Stores(schedule, new RedisReservations(redis, keyPrefix, buckets, DEFAULT_RETRY_DELAYS), schedule);
    }

    @Override
    protected long goneMs() {
        return RedisBuckets.GONE_MS;
    }

    @AfterEach
    void forgetKeys() {
        prefixes.forEach(used -> redis.delete(redis.keys(used + "*")));
    }

    @Test
    void every_key_of_a_bucket_carries_its_hash_tag() {
        Message m = aMessage().topic("order").due(NOW).ttr(1_000).build();
        Message later = aMessage().topic("order").due(NOW + 1_000).build();
        push(3, m);
        push(3, later);
        schedule.moveDue(3, NOW, 10);
        reservations.pop(3, "order", 1, NOW, 0);
        push(3, aMessage().topic("order").due(NOW).build());
        schedule.moveDue(3, NOW, 10);
        Message far = aMessage().topic("order").due(NOW + 60_000).build();
        schedule.push(3, List.of(far), NOW + 60_000 - COLD_AFTER_MS);

        assertThat(schedule.bucketName(3)).isEqualTo(prefix + ":{b3}:delay");
        assertThat(redis.keys(prefix + ":*")).containsExactlyInAnyOrder(prefix + ":{b3}:meta",
                prefix + ":{b3}:delay", prefix + ":{b3}:reserved", prefix + ":{b3}:ready:order",
                prefix + ":{b3}:cold");
        assertThat(redis.opsForZSet().score(prefix + ":{b3}:cold", Long.toString(far.id())))
                .isEqualTo((double) (NOW + 60_000));
        assertThat(redis.opsForZSet().score(prefix + ":{b3}:reserved", Long.toString(m.id())))
                .isEqualTo((double) (NOW + 1_000));
        assertThat(redis.opsForZSet().score(prefix + ":{b3}:delay", Long.toString(later.id())))
                .isEqualTo((double) (NOW + 1_000));
    }

    @Test
    void meta_is_compact_json_without_the_id_which_is_its_field() {
        Message m = aMessage().id(9_007_199_254_740_993L).bizKey("k-1").priority(7).due(NOW + 5).build();
        push(0, m);

        String json = (String) redis.opsForHash().get(prefix + ":{b0}:meta", "9007199254740993");

        assertThat(json).isEqualTo("{\"t\":\"order\",\"k\":\"k-1\","
                + "\"b\":\"{\\\"orderId\\\":42}\",\"p\":7,\"ct\":" + NOW + ",\"d\":" + (NOW + 5)
                + ",\"ttr\":30000,\"ma\":8,\"a\":0}");
        assertThat(redis.opsForZSet().score(prefix + ":{b0}:delay", "9007199254740993"))
                .isEqualTo((double) (NOW + 12));
    }

    @Test
    void a_meta_written_with_its_id_inside_by_an_earlier_version_still_pops() {
        String id = "9007199254740995";
        redis.opsForHash().put(prefix + ":{b0}:meta", id, "{\"id\":\"" + id + "\",\"t\":\"order\",\"b\":\"x\","
                + "\"p\":0,\"ct\":" + NOW + ",\"d\":" + NOW + ",\"ttr\":30000,\"ma\":8,\"a\":0}");
        redis.opsForZSet().add(prefix + ":{b0}:delay", id, NOW);

        schedule.moveDue(0, NOW, 10);
        List<Message> popped = reservations.pop(0, "order", 10, NOW, 0);

        assertThat(popped).containsExactly(new Message(Long.parseLong(id), "order", null, "x", 0, NOW, NOW, 30_000,
                8, null, 1));
    }

    @Test
    void move_due_drops_ids_whose_meta_is_gone() {
        Message lost = aMessage().due(NOW).build();
        Message kept = aMessage().due(NOW + 1).build();
        push(0, lost);
        push(0, kept);
        redis.opsForHash().delete(prefix + ":{b0}:meta", Long.toString(lost.id()));

        MoveResult result = schedule.moveDue(0, NOW + 1, 10);

        assertThat(result).isEqualTo(new MoveResult(List.of(new Moved(kept.id(), "order")), Schedule.NONE));
        assertThat(redis.opsForList().range(prefix + ":{b0}:ready:order", 0, -1))
                .containsExactly(Long.toString(kept.id()));
    }

    @Test
    void moves_of_several_buckets_together_survive_redis_losing_its_scripts() {
        Message first = aMessage().due(NOW).build();
        Message second = aMessage().due(NOW).build();
        push(0, first);
        push(2, second);
        redis.execute((RedisCallback<Void>) connection -> {
            connection.scriptingCommands().scriptFlush();
            return null;
        });

        List<Supplier<MoveResult>> results = schedule.moveDueEach(new int[] {0, 2}, NOW, 10);

        assertThat(results.get(0).get().moved()).containsExactly(new Moved(first.id(), "order"));
        assertThat(results.get(1).get().moved()).containsExactly(new Moved(second.id(), "order"));
    }

    @Test
    void a_bucket_whose_move_fails_fails_alone_when_several_move_together() {
        Message kept = aMessage().due(NOW).build();
        push(0, kept);
        redis.opsForValue().set(prefix + ":{b1}:delay", "not a sorted set");

        List<Supplier<MoveResult>> results = schedule.moveDueEach(new int[] {0, 1}, NOW, 10);

        assertThat(results.get(0).get().moved()).containsExactly(new Moved(kept.id(), "order"));
        assertThatThrownBy(() -> results.get(1).get()).isInstanceOf(UnavailableException.class);
    }

    @Test
    void a_bucket_whose_pop_fails_fails_alone_when_several_pop_together() {
        Message kept = aMessage().due(NOW).build();
        push(0, kept);
        schedule.moveDue(0, NOW, 10);
        redis.opsForValue().set(prefix + ":{b1}:ready:order", "not a list");

        List<Supplier<List<Message>>> popped = reservations.popEach(new int[] {1, 0}, "order", 10, NOW, 0);

        assertThatThrownBy(() -> popped.get(0).get()).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("WRONGTYPE");
        assertThat(popped.get(1).get()).containsExactly(kept.withAttempts(1));
        assertThatThrownBy(() -> reservations.pop(1, "order", 10, NOW, 0)).isInstanceOf(UnavailableException.class);
    }

    @Test
    void empty_retry_delays_fall_back_to_the_server_default() {
        Message m = new Message(4_242L, "order", null, "x", 0, NOW, NOW, 1_000, 5, List.of(), 0);
        push(0, m);
        schedule.moveDue(0, NOW, 10);

        assertThat(reservations.pop(0, "order", 1, NOW, 0)).containsExactly(m.withAttempts(1));
        assertThat(reservations.requeueExpired(0, NOW + 1_000, 10).requeued())
                .containsExactly(new Reservations.Requeued(4_242L, "order", 1, NOW + 1_000 + DEFAULT_RETRY_DELAYS.get(0)));
    }

    @Test
    void ready_topics_match_the_prefix_literally() {
        String base = TestServices.freshKeyPrefix();
        prefixes.add(base);
        Stores globbing = storesAt(base + "*", 1);
        Stores neighbour = storesAt(base + "x", 1);
        globbing.schedule().push(0, List.of(aMessage().topic("mine").due(NOW).build()), NOW);
        neighbour.schedule().push(0, List.of(aMessage().topic("theirs").due(NOW).build()), NOW);
        globbing.schedule().moveDue(0, NOW, 10);
        neighbour.schedule().moveDue(0, NOW, 10);

        assertThat(globbing.reservations().readyTopics(0)).containsExactly("mine");
        assertThat(neighbour.reservations().readyTopics(0)).containsExactly("theirs");
    }

    @Test
    void move_due_works_through_a_large_bucket_in_batches() {
        for (int i = 0; i < 1_100; i++) {
            push(1, aMessage().due(NOW + i).build());
        }

        assertThat(schedule.moveDue(1, NOW + 10_000, 500).moved()).hasSize(500);
        assertThat(schedule.moveDue(1, NOW + 10_000, 500).nextScore()).isEqualTo(NOW + 1_000);
        assertThat(reservations.readyCount(1, "order")).isEqualTo(1_000);
    }
}
