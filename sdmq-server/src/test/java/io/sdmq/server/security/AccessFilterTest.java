package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.ui.UiCookie;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The caller's name and scope the filter leaves on the request, for the routes and the bulk actions' notes. */
class AccessFilterTest {
    private static final String NAMED = "orders-0123456789abcdef";
    private static final String LEGACY = "admin-0123456789abcdef";
    private static final String VIEWER = "dashboard-0123456789abcdef";

    private final AccessFilter closed = filter(Map.of("sdmq.auth.admin-token", LEGACY,
            "sdmq.auth.tokens.orders-bot.secret", NAMED, "sdmq.auth.tokens.orders-bot.role", "producer",
            "sdmq.auth.tokens.orders-bot.topics", "orders.*"));

    @Test
    void a_named_token_is_known_by_its_name_and_carries_its_scope() throws Exception {
        MockHttpServletRequest request = call(closed, "POST", "/push", NAMED);

        assertThat(request.getAttribute(AccessFilter.CALLER_NAME)).isEqualTo("orders-bot");
        assertThat(((TopicScope) request.getAttribute(AccessFilter.CALLER_SCOPE)).patterns())
                .containsExactly("orders.*");
    }

    @Test
    void a_legacy_token_is_known_by_its_role_and_place_and_acts_on_every_topic() throws Exception {
        MockHttpServletRequest request = call(closed, "POST", "/messages/requeue", LEGACY);

        assertThat(request.getAttribute(AccessFilter.CALLER_NAME)).isEqualTo("admin token 1");
        assertThat(request.getAttribute(AccessFilter.CALLER_SCOPE)).isSameAs(TopicScope.EVERY_TOPIC);
    }

    @Test
    void every_caller_of_a_server_without_tokens_is_anonymous() throws Exception {
        MockHttpServletRequest request = call(filter(Map.of()), "POST", "/messages/requeue", null);

        assertThat(request.getAttribute(AccessFilter.CALLER_NAME)).isEqualTo(AccessFilter.ANONYMOUS)
                .isEqualTo("anonymous");
        assertThat(request.getAttribute(AccessFilter.CALLER_SCOPE)).isSameAs(TopicScope.EVERY_TOPIC);
    }

    @Test
    void a_refused_request_goes_no_further() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        closed.doFilter(request("POST", "/messages/requeue", NAMED), response, chain);

        assertThat(response.getStatus()).isEqualTo(403);
        assertThat(chain.getRequest()).isNull();
    }

    @Test
    void a_dashboard_page_takes_the_token_from_its_cookie_and_says_whether_the_caller_may_act() throws Exception {
        AccessFilter withViewer = filter(Map.of("sdmq.auth.admin-token", LEGACY,
                "sdmq.auth.tokens.dashboard.secret", VIEWER, "sdmq.auth.tokens.dashboard.role", "viewer"));

        MockHttpServletRequest viewer = signedIn(withViewer, "GET", "/ui/topics", VIEWER);
        MockHttpServletRequest admin = signedIn(withViewer, "POST", "/ui/topics/t/pause", LEGACY);

        assertThat(viewer.getAttribute(AccessFilter.CALLER_NAME)).isEqualTo("dashboard");
        assertThat(viewer.getAttribute(AccessFilter.CALLER_IS_ADMIN)).isEqualTo(false);
        assertThat(admin.getAttribute(AccessFilter.CALLER_IS_ADMIN)).isEqualTo(true);
    }

    @Test
    void a_viewer_cookie_may_not_act_on_the_dashboard() throws Exception {
        AccessFilter withViewer = filter(Map.of("sdmq.auth.tokens.dashboard.secret", VIEWER,
                "sdmq.auth.tokens.dashboard.role", "viewer"));
        MockHttpServletRequest request = request("POST", "/ui/topics/t/pause", null);
        request.setCookies(cookie(VIEWER));
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        withViewer.doFilter(request, response, chain);

        assertThat(response.getStatus()).isEqualTo(403);
        assertThat(chain.getRequest()).isNull();
    }

    @Test
    void a_dashboard_page_without_a_valid_cookie_sends_the_browser_to_sign_in() throws Exception {
        for (String token : new String[] {null, "wrong-0123456789abcdef"}) {
            MockHttpServletRequest request = request("GET", "/ui/topics", null);
            if (token != null) {
                request.setCookies(cookie(token));
            }
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();

            closed.doFilter(request, response, chain);

            assertThat(response.getRedirectedUrl()).isEqualTo("/ui/login");
            assertThat(chain.getRequest()).isNull();
        }
    }

    @Test
    void the_cookie_counts_on_the_dashboard_only_never_on_the_rest_api() throws Exception {
        MockHttpServletRequest request = request("POST", "/messages/requeue", null);
        request.setCookies(cookie(LEGACY));
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        closed.doFilter(request, response, chain);

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(chain.getRequest()).isNull();
    }

    private static MockHttpServletRequest signedIn(AccessFilter filter, String method, String path, String token)
            throws Exception {
        MockHttpServletRequest request = request(method, path, null);
        request.setCookies(cookie(token));
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).as("passed the filter").isSameAs(request);
        return request;
    }

    private static Cookie cookie(String token) {
        String header = UiCookie.signIn(token, false);
        return new Cookie(UiCookie.NAME, header.substring(header.indexOf('=') + 1, header.indexOf(';')));
    }

    private static MockHttpServletRequest call(AccessFilter filter, String method, String path, String token)
            throws Exception {
        MockHttpServletRequest request = request(method, path, token);
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).as("passed the filter").isSameAs(request);
        return request;
    }

    private static MockHttpServletRequest request(String method, String path, String token) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (token != null) {
            request.addHeader("Authorization", "Bearer " + token);
        }
        return request;
    }

    private static AccessFilter filter(Map<String, String> properties) {
        SdmqProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("sdmq", SdmqProperties.class);
        return new AccessFilter(bound, JsonMapper.builder().build());
    }
}
