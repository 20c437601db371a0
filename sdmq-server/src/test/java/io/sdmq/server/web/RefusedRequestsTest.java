package io.sdmq.server.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RefusedRequestsTest {

    @Test
    void each_path_tomcat_refuses_is_answered_with_the_rule_it_breaks() {
        assertThat(RefusedRequests.pathRule("/get/a%2Fb")).isEqualTo("path: must not contain an encoded slash (%2F)");
        assertThat(RefusedRequests.pathRule("/get/a%2fb")).isEqualTo("path: must not contain an encoded slash (%2F)");
        assertThat(RefusedRequests.pathRule("/get/a%5Cb")).startsWith("path: must not contain a backslash");
        assertThat(RefusedRequests.pathRule("/get/a\\b")).startsWith("path: must not contain a backslash");
        assertThat(RefusedRequests.pathRule("/get/a%00b")).isEqualTo("path: must not contain an encoded NUL (%00)");
        for (String broken : new String[] {"/get/a%zz", "/get/a%4", "/get/%"}) {
            assertThat(RefusedRequests.pathRule(broken)).as(broken)
                    .isEqualTo("path: each % must start an escape of two hex digits");
        }
        for (String notUtf8 : new String[] {"/get/%C0%AF", "/get/%FF", "/get/%E2%82"}) {
            assertThat(RefusedRequests.pathRule(notUtf8)).as(notUtf8).startsWith("path: must be UTF-8");
        }
        for (String above : new String[] {"/..", "/get/../..", "/get/.%2e/%2E%2E", "/./.."}) {
            assertThat(RefusedRequests.pathRule(above)).as(above)
                    .isEqualTo("path: must not climb above the root with .. segments");
        }
        assertThat(RefusedRequests.pathRule("*")).isEqualTo("path: must start with /");
        assertThat(RefusedRequests.pathRule(null)).startsWith("request target: must hold only the characters");
        assertThat(RefusedRequests.pathRule("/get/../x")).startsWith("path: must hold only the characters");
    }

    @Test
    void a_query_tomcat_cannot_decode_names_its_first_bad_parameter() {
        assertThat(RefusedRequests.queryRule("count=1&timeout=%zz"))
                .isEqualTo("timeout: must be percent-encoded UTF-8");
        assertThat(RefusedRequests.queryRule("timeout=1%")).isEqualTo("timeout: must be percent-encoded UTF-8");
        assertThat(RefusedRequests.queryRule("count=%C0%AF")).isEqualTo("count: must be percent-encoded UTF-8");
        assertThat(RefusedRequests.queryRule("%0A=%zz")).as("a name that could forge a log line is not quoted")
                .isEqualTo("query: must be percent-encoded UTF-8");
        assertThat(RefusedRequests.queryRule("%ZZ=1"))
                .isEqualTo("query: each parameter name must be percent-encoded UTF-8");
        assertThat(RefusedRequests.queryRule("jobId=1&=delay=1000"))
                .isEqualTo("query: each parameter must have a name before its =");
        assertThat(RefusedRequests.queryRule("a=1&b=2")).startsWith("parameters: too many, or not percent-encoded");
        assertThat(RefusedRequests.queryRule(null)).startsWith("parameters: too many, or not percent-encoded");
    }

    @Test
    void an_error_status_without_a_body_gets_a_message_for_its_status() {
        assertThat(RefusedRequests.message(400, "GET", "/get/a%2Fb", true)).startsWith("path: ");
        assertThat(RefusedRequests.message(400, "GET", "/get/a", false)).isEqualTo("request: bad request");
        assertThat(RefusedRequests.message(404, "GET", "/actuator/health/x", false)).isEqualTo("no such endpoint");
        assertThat(RefusedRequests.message(405, "TRACE", "/push", true)).isEqualTo("method TRACE is not allowed here");
        assertThat(RefusedRequests.message(405, null, "/push", false)).isEqualTo("method: not allowed here");
        assertThat(RefusedRequests.message(500, "GET", "/push", false)).isEqualTo("internal error");
        assertThat(RefusedRequests.message(599, "GET", "/push", false)).isEqualTo("internal error");
    }
}
