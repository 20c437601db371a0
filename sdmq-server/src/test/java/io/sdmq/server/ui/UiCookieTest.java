package io.sdmq.server.ui;

import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** The sign-in cookie's attributes, and the token read back from what a browser sends. */
class UiCookieTest {
    private static final String TOKEN = "admin-0123456789abcdef";

    @Test
    void the_cookie_is_http_only_same_site_strict_and_held_to_the_dashboard() {
        String header = UiCookie.signIn(TOKEN, false);

        assertThat(header).startsWith("sdmq_ui=").contains("; Path=/ui").contains("; HttpOnly")
                .contains("; SameSite=Strict").doesNotContain("Secure").doesNotContain("Max-Age")
                .doesNotContain(TOKEN);
    }

    @Test
    void over_https_the_cookie_is_secure() {
        assertThat(UiCookie.signIn(TOKEN, true)).contains("; Secure");
        assertThat(UiCookie.signOut(true)).contains("; Secure");
    }

    @Test
    void signing_out_empties_and_expires_the_cookie_on_the_same_path() {
        assertThat(UiCookie.signOut(false)).startsWith("sdmq_ui=;").contains("; Path=/ui").contains("Max-Age=0")
                .contains("; HttpOnly").contains("; SameSite=Strict");
    }

    @Test
    void the_token_set_is_the_token_read_back_whatever_its_characters() {
        for (String token : new String[] {TOKEN, "with space; comma, \"quote\" and é"}) {
            String value = UiCookie.signIn(token, false).split(";")[0].substring("sdmq_ui=".length());
            MockHttpServletRequest request = new MockHttpServletRequest();
            request.setCookies(new Cookie("other", "x"), new Cookie(UiCookie.NAME, value));

            assertThat(UiCookie.read(request)).isEqualTo(token);
            assertThat(UiCookie.value(request)).isEqualTo(value);
        }
    }

    @Test
    void no_cookie_an_empty_one_or_a_malformed_one_reads_as_none() {
        MockHttpServletRequest none = new MockHttpServletRequest();
        MockHttpServletRequest empty = new MockHttpServletRequest();
        empty.setCookies(new Cookie(UiCookie.NAME, ""));
        MockHttpServletRequest malformed = new MockHttpServletRequest();
        malformed.setCookies(new Cookie(UiCookie.NAME, "!!not-base64!!"));

        assertThat(UiCookie.read(none)).isNull();
        assertThat(UiCookie.read(empty)).isNull();
        assertThat(UiCookie.read(malformed)).isNull();
    }
}
