package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
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
