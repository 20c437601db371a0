package io.sdmq.server.ui;

import io.sdmq.common.InvalidRequestException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Form fields as the settings editor and the filters read them: blank is absent, the rest parses or names itself. */
class UiFormsTest {

    @Test
    void blank_fields_are_absent() {
        assertThat(UiForms.whole("ttr", " ")).isNull();
        assertThat(UiForms.integer("maxAttempts", "")).isNull();
        assertThat(UiForms.wholes("retryDelays", null)).isNull();
        assertThat(UiForms.text("  ")).isNull();
    }

    @Test
    void numbers_and_lists_parse_around_spaces() {
        assertThat(UiForms.whole("ttr", " 30000 ")).isEqualTo(30_000L);
        assertThat(UiForms.integer("maxAttempts", "4")).isEqualTo(4);
        assertThat(UiForms.wholes("retryDelays", "1000, 5000,60000")).isEqualTo(List.of(1_000L, 5_000L, 60_000L));
        assertThat(UiForms.text(" orders ")).isEqualTo("orders");
    }

    @Test
    void anything_else_names_the_field_and_the_rule() {
        assertThatThrownBy(() -> UiForms.whole("ttr", "soon")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("ttr: must be a whole number");
        assertThatThrownBy(() -> UiForms.integer("rateLimit", "99999999999")).hasMessage(
                "rateLimit: must be a whole number up to 2147483647");
        assertThatThrownBy(() -> UiForms.wholes("retryDelays", "1000,,2000"))
                .hasMessage("retryDelays: must be whole numbers separated by commas");
    }
}
