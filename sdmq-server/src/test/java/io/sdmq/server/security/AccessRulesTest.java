package io.sdmq.server.security;

import io.sdmq.server.config.SdmqProperties;
import io.sdmq.server.security.AccessRules.Role;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.PathContainer;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AccessRulesTest {
    private final AccessRules rules = new AccessRules(new SdmqProperties.Auth(
            List.of("p1-0123456789abcdef", "shared-0123456789abcdef"),
            List.of("c1-0123456789abcdef", "shared-0123456789abcdef"),
            List.of("short")));

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
        assertThat(new AccessRules(new SdmqProperties.Auth(List.of(" ", ""), null, null)).open()).isTrue();
        assertThat(rules.open()).isFalse();
        assertThat(rules.count(Role.PRODUCER)).isEqualTo(2);
        assertThat(rules.shortTokens()).containsExactly("admin token 1");
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

    private static Optional<Role> role(String path) {
        return AccessRules.requiredRole(PathContainer.parsePath(path));
    }
}
