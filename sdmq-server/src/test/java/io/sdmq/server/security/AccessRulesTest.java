package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.security.AccessRules.Caller;
import io.sdmq.server.security.AccessRules.Role;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.PathContainer;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AccessRulesTest {
    private final AccessRules rules = new AccessRules(new SdmqProperties.Auth(
            List.of("p1-0123456789abcdef", "shared-0123456789abcdef"),
            List.of("c1-0123456789abcdef", "shared-0123456789abcdef"),
            List.of("short"), Map.of(
                    "orders-bot", new SdmqProperties.NamedToken("orders-0123456789abcdef", "producer",
                            List.of("orders.*", "audit")),
                    "dashboard", new SdmqProperties.NamedToken("view-0123456789abcdef", "VIEWER", null),
                    "tiny", new SdmqProperties.NamedToken("tiny", "consumer", null))));

    @Test
    void each_path_needs_its_role_and_an_unlisted_path_needs_admin() {
        assertThat(role("/push")).hasValue(Role.PRODUCER);
        assertThat(role("/push/batch")).hasValue(Role.PRODUCER);
        assertThat(role("/delete")).hasValue(Role.PRODUCER);
        assertThat(role("/reschedule")).hasValue(Role.PRODUCER);
        assertThat(role("/get/orders")).hasValue(Role.CONSUMER);
        assertThat(role("/finish")).hasValue(Role.CONSUMER);
        assertThat(role("/nack")).hasValue(Role.CONSUMER);
        assertThat(role("/touch")).hasValue(Role.CONSUMER);
        for (String admin : List.of("/reStore", "/reStoreJob", "/requeue", "/job/1", "/actuator",
                "/actuator/prometheus", "/get/a/b", "/push/", "/anything", "/")) {
            assertThat(role(admin)).as(admin).hasValue(Role.ADMIN);
        }
    }

    @Test
    void each_compatibility_route_needs_the_role_of_its_native_counterpart() {
        for (String producer : List.of("/compat/ouqiang/push", "/compat/ouqiang/delete", "/compat/sdmq/push",
                "/compat/sdmq/delete")) {
            assertThat(role(producer)).as(producer).hasValue(Role.PRODUCER);
        }
        assertThat(role("/compat/ouqiang/pop")).hasValue(Role.CONSUMER);
        assertThat(role("/compat/ouqiang/finish")).hasValue(Role.CONSUMER);
        for (String admin : List.of("/compat/sdmq/reStore", "/compat/sdmq/reStore/1", "/compat/sdmq/reStoreJob",
                "/compat/sdmq/finish", "/compat/ouqiang/get", "/compat/ouqiang", "/compat")) {
            assertThat(role(admin)).as(admin).hasValue(Role.ADMIN);
        }
    }

    @Test
    void health_and_the_api_documentation_are_open() {
        for (String open : List.of("/actuator/health", "/actuator/health/liveness", "/v3/api-docs",
                "/v3/api-docs/swagger-config", "/swagger-ui.html", "/swagger-ui/index.html")) {
            assertThat(role(open)).as(open).isEmpty();
        }
    }

    @Test
    void dashboard_pages_are_the_viewers_its_actions_the_admins_and_signing_in_and_its_assets_are_open() {
        for (String page : List.of("/ui", "/ui/topics", "/ui/topics/orders", "/ui/messages/1", "/ui/dead")) {
            assertThat(AccessRules.requiredRole("GET", PathContainer.parsePath(page))).as(page).hasValue(Role.VIEWER);
            assertThat(AccessRules.requiredRole("POST", PathContainer.parsePath(page))).as(page).hasValue(Role.ADMIN);
        }
        for (String open : List.of("/ui/login", "/ui/logout", "/ui/ui.css", "/ui/charts.js",
                "/webjars/htmx.org/dist/htmx.min.js")) {
            assertThat(AccessRules.requiredRole("POST", PathContainer.parsePath(open))).as(open).isEmpty();
            assertThat(AccessRules.requiredRole("GET", PathContainer.parsePath(open))).as(open).isEmpty();
        }
        assertThat(AccessRules.isUi(PathContainer.parsePath("/ui/topics"))).isTrue();
        assertThat(AccessRules.isUi(PathContainer.parsePath("/topics"))).isFalse();
    }

    @Test
    void a_path_is_matched_as_the_dispatcher_routes_it_its_segments_decoded_once() {
        assertThat(role("/get/x%25y")).hasValue(Role.CONSUMER);
        assertThat(role("/get/x%2525")).hasValue(Role.CONSUMER);
        assertThat(role("/p%75sh")).hasValue(Role.PRODUCER);
        assertThat(role("/get/x%2Fy")).as("an encoded slash stays within its segment").hasValue(Role.CONSUMER);
        assertThat(role("/push;x=1")).as("a path parameter is not part of the segment").hasValue(Role.PRODUCER);
        for (String admin : List.of("/push/../get/x", "//push", "/push/", "/actuator/%2e%2e/prometheus")) {
            assertThat(role(admin)).as(admin).hasValue(Role.ADMIN);
        }
        assertThat(role("/actuator/health/../prometheus")).as("routed to health, which serves no ../prometheus")
                .isEmpty();
    }

    @Test
    void a_token_holds_every_role_it_is_listed_under_and_is_named_without_its_value() {
        assertThat(rules.caller("shared-0123456789abcdef")).hasValueSatisfying(c -> {
            assertThat(c.roles()).isEqualTo(Set.of(Role.PRODUCER, Role.CONSUMER));
            assertThat(c.name()).isEqualTo("producer token 2");
        });
        assertThat(rules.caller("p1-0123456789abcdef")).hasValueSatisfying(c -> {
            assertThat(c.may(Role.PRODUCER)).isTrue();
            assertThat(c.may(Role.CONSUMER)).isFalse();
            assertThat(c.may(Role.ADMIN)).isFalse();
        });
        assertThat(rules.caller("short")).hasValueSatisfying(c -> assertThat(c.may(Role.CONSUMER)).isTrue());
    }

    @Test
    void an_unknown_empty_or_missing_token_is_nobody() {
        assertThat(rules.caller("p1-0123456789abcdeF")).isEmpty();
        assertThat(rules.caller("p1-0123456789abcde")).isEmpty();
        assertThat(rules.caller("")).isEmpty();
        assertThat(rules.caller(null)).isEmpty();
    }

    @Test
    void blank_entries_are_dropped_and_no_token_at_all_means_open() {
        assertThat(new AccessRules(new SdmqProperties.Auth(List.of(" ", ""), null, null, null)).open()).isTrue();
        assertThat(rules.open()).isFalse();
        assertThat(rules.count(Role.PRODUCER)).as("two listed and one named").isEqualTo(3);
        assertThat(rules.shortTokens()).containsExactlyInAnyOrder("admin token 1", "tiny");
    }

    @Test
    void only_push_paths_count_for_the_rate_limit() {
        assertThat(AccessRules.isPush(PathContainer.parsePath("/push"))).isTrue();
        assertThat(AccessRules.isPush(PathContainer.parsePath("/push/batch"))).isTrue();
        assertThat(AccessRules.isPush(PathContainer.parsePath("/delete"))).isFalse();
        assertThat(AccessRules.isPush(PathContainer.parsePath("/compat/ouqiang/push"))).isTrue();
        assertThat(AccessRules.isPush(PathContainer.parsePath("/compat/sdmq/push"))).isTrue();
        assertThat(AccessRules.isPush(PathContainer.parsePath("/compat/ouqiang/pop"))).isFalse();
    }

    @Test
    void a_viewer_reads_with_get_and_every_other_method_on_those_paths_needs_admin() {
        for (String read : List.of("/job/1", "/actuator/prometheus", "/actuator/metrics",
                "/actuator/metrics/sdmq.delivery.lateness", "/topics", "/topics/orders", "/topics/orders/stats",
                "/messages", "/instances", "/reStore/progress", "/topics/orders/series")) {
            assertThat(role("GET", read)).as(read).hasValue(Role.VIEWER);
            assertThat(role("POST", read)).as("POST " + read).hasValue(Role.ADMIN);
        }
        for (String admin : List.of("/actuator", "/actuator/info", "/topics/orders/pause", "/topics/orders/purge",
                "/messages/requeue", "/messages/run-now", "/messages/delete", "/reStore", "/requeue")) {
            assertThat(role("GET", admin)).as(admin).hasValue(Role.ADMIN);
        }
        assertThat(role("PUT", "/topics/orders")).hasValue(Role.ADMIN);
        assertThat(role("DELETE", "/topics/orders")).hasValue(Role.ADMIN);
    }

    @Test
    void a_viewer_may_only_read_and_an_admin_may_read_too() {
        assertThat(rules.caller("view-0123456789abcdef")).hasValueSatisfying(c -> {
            assertThat(c.name()).isEqualTo("dashboard");
            assertThat(c.may(Role.VIEWER)).isTrue();
            assertThat(c.may(Role.PRODUCER)).isFalse();
            assertThat(c.may(Role.CONSUMER)).isFalse();
            assertThat(c.may(Role.ADMIN)).isFalse();
        });
        assertThat(rules.caller("p1-0123456789abcdef").orElseThrow().may(Role.VIEWER)).isFalse();
        assertThat(new Caller("admin token 1", Set.of(Role.ADMIN), TopicScope.EVERY_TOPIC).may(Role.VIEWER)).isTrue();
    }

    @Test
    void a_named_token_carries_its_name_its_one_role_and_its_topics() {
        assertThat(rules.caller("orders-0123456789abcdef")).hasValueSatisfying(c -> {
            assertThat(c.name()).isEqualTo("orders-bot");
            assertThat(c.roles()).containsExactly(Role.PRODUCER);
            assertThat(c.scope().patterns()).containsExactly("orders.*", "audit");
        });
        assertThat(rules.caller("p1-0123456789abcdef").orElseThrow().scope().everyTopic()).isTrue();
        assertThat(rules.count(Role.VIEWER)).isEqualTo(1);
        assertThat(rules.scoped()).isEqualTo(1);
    }

    /** The routes that do not depend on the method answer the same for each; POST keeps the viewer's GETs apart. */
    private static Optional<Role> role(String path) {
        return role("POST", path);
    }

    private static Optional<Role> role(String method, String path) {
        return AccessRules.requiredRole(method, PathContainer.parsePath(path));
    }
}
