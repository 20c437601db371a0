package io.sdmq.server.ui;

import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Which dashboard requests need the synchronizer token, and where it may come from. */
class CsrfFilterTest {
    private static final String COOKIE = "YWRtaW4tMDEyMzQ1Njc4OWFiY2RlZg";

    private final CsrfTokens tokens = new CsrfTokens();
    private final CsrfFilter filter = new CsrfFilter(tokens, JsonMapper.builder().build());

    @Test
    void an_action_without_the_token_or_with_another_sign_ins_is_refused_403() throws Exception {
        assertThat(status(post("/ui/topics/t/pause"))).isEqualTo(403);
        MockHttpServletRequest other = post("/ui/topics/t/pause");
        other.addParameter(CsrfTokens.FIELD, tokens.tokenFor("another-cookie"));
        assertThat(status(other)).isEqualTo(403);
    }

    @Test
    void an_action_with_the_token_in_the_form_or_the_htmx_header_goes_on() throws Exception {
        MockHttpServletRequest form = post("/ui/topics/t/pause");
        form.addParameter(CsrfTokens.FIELD, tokens.tokenFor(COOKIE));
        MockHttpServletRequest htmx = post("/ui/messages/1/requeue");
        htmx.addHeader(CsrfTokens.HEADER, tokens.tokenFor(COOKIE));

        assertThat(status(form)).isEqualTo(200);
        assertThat(status(htmx)).isEqualTo(200);
    }

    @Test
    void pages_signing_in_and_out_and_the_rest_api_need_no_token() throws Exception {
        assertThat(status(new MockHttpServletRequest("GET", "/ui/topics"))).isEqualTo(200);
        assertThat(status(post("/ui/login"))).isEqualTo(200);
        assertThat(status(post("/ui/logout"))).isEqualTo(200);
        assertThat(status(post("/messages/requeue"))).isEqualTo(200);
    }

    @Test
    void an_escaped_dashboard_path_is_still_checked() throws Exception {
        assertThat(status(post("/%75i/topics/t/pause"))).isEqualTo(403);
    }

    private MockHttpServletRequest post(String path) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
        request.setCookies(new Cookie(UiCookie.NAME, COOKIE));
        return request;
    }

    /** 200 when the request passed the filter, the filter's status otherwise. */
    private int status(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        return chain.getRequest() == null ? response.getStatus() : 200;
    }
}
