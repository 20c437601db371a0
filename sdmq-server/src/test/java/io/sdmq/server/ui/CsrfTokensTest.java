package io.sdmq.server.ui;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The synchronizer token: bound to one sign-in and one instance's key, never the cookie itself. */
class CsrfTokensTest {
    private final CsrfTokens tokens = new CsrfTokens();

    @Test
    void the_token_of_a_sign_in_matches_it_and_no_other() {
        String token = tokens.tokenFor("cookie-a");

        assertThat(tokens.matches("cookie-a", token)).isTrue();
        assertThat(tokens.matches("cookie-b", token)).isFalse();
        assertThat(tokens.tokenFor("cookie-a")).isEqualTo(token);
    }

    @Test
    void a_missing_empty_or_altered_token_does_not_match() {
        String token = tokens.tokenFor("cookie-a");
        String altered = (token.charAt(0) == 'A' ? "B" : "A") + token.substring(1);

        assertThat(tokens.matches("cookie-a", null)).isFalse();
        assertThat(tokens.matches("cookie-a", "")).isFalse();
        assertThat(tokens.matches("cookie-a", altered)).isFalse();
        assertThat(tokens.matches("cookie-a", token + "x")).isFalse();
    }

    @Test
    void another_instance_draws_another_key_so_its_tokens_differ() {
        assertThat(new CsrfTokens().tokenFor("cookie-a")).isNotEqualTo(tokens.tokenFor("cookie-a"));
    }

    @Test
    void the_token_does_not_contain_the_cookie() {
        String cookie = "dashboard-0123456789abcdef";

        assertThat(tokens.tokenFor(cookie)).doesNotContain(cookie).hasSize(43);
    }

    @Test
    void an_open_server_has_one_token_for_its_sign_in_without_a_cookie() {
        String token = tokens.tokenFor(null);

        assertThat(tokens.matches(null, token)).isTrue();
        assertThat(tokens.matches("cookie-a", token)).isFalse();
    }
}
