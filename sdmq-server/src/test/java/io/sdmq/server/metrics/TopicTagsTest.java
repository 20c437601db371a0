package io.sdmq.server.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class TopicTagsTest {

    @Test
    void the_first_topics_keep_their_name_and_later_ones_are_other_for_good() {
        TopicTags tags = new TopicTags(2);

        assertThat(List.of("a", "b", "c", "a", "b", "c").stream().map(tags::of))
                .containsExactly("a", "b", TopicTags.OTHER, "a", "b", TopicTags.OTHER);
    }

    @Test
    void no_topic_gets_a_tag_of_its_own_when_the_bound_is_zero() {
        assertThat(new TopicTags(0).of("a")).isEqualTo(TopicTags.OTHER);
    }

    @Test
    void threads_racing_for_the_last_places_never_admit_more_topics_than_the_bound() {
        TopicTags tags = new TopicTags(10);
        Set<String> seen = ConcurrentHashMap.newKeySet();

        IntStream.range(0, 10_000).parallel().forEach(i -> seen.add(tags.of("topic-" + i % 1_000)));

        assertThat(seen).hasSize(11).contains(TopicTags.OTHER);
    }
}
