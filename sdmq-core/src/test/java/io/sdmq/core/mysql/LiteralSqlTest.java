package io.sdmq.core.mysql;

import io.sdmq.common.Message;
import io.sdmq.common.Transition;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.List;
import java.util.stream.LongStream;

import static io.sdmq.common.MessageStatus.DEAD;
import static io.sdmq.common.MessageStatus.DELAY;
import static io.sdmq.common.MessageStatus.FINISHED;
import static io.sdmq.common.MessageStatus.RESERVED;
import static io.sdmq.common.MessageStatus.WAIT_PUT;
import static io.sdmq.core.spi.MessageBuilder.aMessage;
import static org.assertj.core.api.Assertions.assertThat;

class LiteralSqlTest {
    private static final long T0 = 1_710_037_800_123L;

    @Test
    void printable_ascii_without_quote_or_backslash_is_quoted_as_it_is() {
        assertThat(text("order-42 {b3} \"x\" ? % -- /* # ;")).isEqualTo("'order-42 {b3} \"x\" ? % -- /* # ;'");
        assertThat(text("")).isEqualTo("''");
        assertThat(text(null)).isEqualTo("NULL");
    }

    @Test
    void any_other_text_is_a_hex_literal_of_its_utf8_bytes() {
        assertThat(text("it's")).isEqualTo("_utf8mb4 X'69742773'");
        assertThat(text("C:\\")).isEqualTo("_utf8mb4 X'433a5c'");
        assertThat(text("a\0b\tc\n")).isEqualTo("_utf8mb4 X'61006209630a'");
        assertThat(text("é😀")).isEqualTo("_utf8mb4 X'c3a9f09f9880'");
        assertThat(text("\u007f")).isEqualTo("_utf8mb4 X'7f'");
    }

    @Test
    void a_lone_surrogate_is_written_as_a_question_mark() {
        assertThat(text("a\ud83d")).isEqualTo("_utf8mb4 X'613f'");
    }

    @Test
    void a_time_is_its_utc_wall_clock_to_the_millisecond() {
        assertThat(LiteralSql.time(new StringBuilder(), LocalDateTime.of(2024, 3, 10, 2, 30, 0, 123_000_000)))
                .hasToString("'2024-03-10 02:30:00.123'");
        assertThat(LiteralSql.time(new StringBuilder(), Rows.utc(0))).hasToString("'1970-01-01 00:00:00.000'");
    }

    @Test
    void new_messages_are_cut_into_statements_of_about_the_given_size_and_the_last_carries_the_end() {
        List<Message> messages = List.of(aMessage().body("a".repeat(100)).build(),
                aMessage().body("b".repeat(100)).build(), aMessage().body("c".repeat(100)).build());

        List<String> statements = LiteralSql.insertAll(messages.stream().map(Rows::newMessage).toList(),
                messages.stream().map(m -> Rows.firstStatusLogRow(m, "host-1", "main")).toList(), 500, "COMMIT");

        assertThat(statements).hasSize(2);
        assertThat(statements.get(0)).startsWith("INSERT INTO sdmq_message (").contains("'" + "a".repeat(100) + "'")
                .contains("'" + "b".repeat(100) + "'").contains(";INSERT INTO sdmq_message_log (")
                .doesNotContain("c".repeat(100))
                .doesNotEndWith("COMMIT");
        assertThat(statements.get(1)).contains("'" + "c".repeat(100) + "'").endsWith(";COMMIT");
        assertThat(statements.get(1)).contains("'WAIT_PUT'", "'host-1'", "'main'");
    }

    @Test
    void a_batch_of_transitions_guards_with_the_terminal_statuses_a_requeue_and_the_end_of_a_life_with_their_own() {
        Message m = aMessage().build();
        List<Transition> batch = List.of(Transition.of(m.id(), WAIT_PUT, DELAY, T0, "b"),
                Transition.of(m.id() + 1, DEAD, DELAY, T0, "b"),
                Transition.of(m.id() + 2, RESERVED, FINISHED, T0, "b"));

        String sql = LiteralSql.transitions(batch.stream().map(t -> Rows.statusLogRow(t, "h")).toList(),
                StatusChanges.Batch.of(StatusChanges.fold(batch)));

        assertThat(sql).startsWith("INSERT INTO sdmq_message_log (").endsWith(";COMMIT")
                .contains(" AND (update_time <= '2024-03-10 02:30:00.123')")
                .contains("status NOT IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED'));")
                .contains("status NOT IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED') OR status = 'DEAD');")
                .contains(" AND (update_time <= '2024-03-10 02:30:00.123' OR NOT EXISTS (SELECT 1 FROM"
                        + " sdmq_message_log r FORCE INDEX (idx_sdmq_message_log_message_id)"
                        + " WHERE r.message_id = sdmq_message.id AND r.from_status IN ('DEAD', 'EXPIRED')"
                        + " AND r.changed_at > '2024-03-10 02:30:00.123')) AND (status NOT IN");
    }

    @Test
    void a_purge_deletes_twenty_messages_a_statement() {
        List<Long> ids = LongStream.rangeClosed(1, 41).boxed().toList();

        assertThat(LiteralSql.deleteStatusLogRows(ids).split(";")).hasSize(3)
                .allMatch(statement -> statement.startsWith("DELETE FROM sdmq_message_log WHERE message_id IN ("));
        assertThat(LiteralSql.deleteTerminalMessages(ids).split(";")).hasSize(3).allMatch(statement ->
                statement.endsWith(" AND m.status IN ('FINISHED', 'DELETED', 'DEAD', 'EXPIRED')"));
    }

    private static String text(String value) {
        return LiteralSql.text(new StringBuilder(), value).toString();
    }
}
