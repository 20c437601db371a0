package io.sdmq.core.mysql;

import org.junit.jupiter.api.Test;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.DELETED;
import static io.sdmq.common.MessageStatus.EXPIRED;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.READY;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static org.assertj.core.api.Assertions.assertThat;

class StatusesTest {

    @Test
    void the_sets_follow_the_state_machine_of_message_status() {
        assertThat(Statuses.TERMINAL).containsExactly(FINISHED, DELETED, DEAD, EXPIRED);
        assertThat(Statuses.PENDING).containsExactly(WAIT_PUT, DELAY, READY, RESERVED);
        assertThat(Statuses.SCHEDULED).containsExactly(DELAY, READY, RESERVED);
        assertThat(Statuses.REQUEUED_FROM).containsExactly(DEAD, EXPIRED);
    }

    @Test
    void a_transition_without_a_from_status_is_no_requeue() {
        assertThat(Statuses.REQUEUED_FROM.contains(null)).isFalse();
    }
}
