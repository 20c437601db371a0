package io.sdmq.server;

import io.sdmq.server.RawHttp.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paths and parameters as a fuzzer sends them, raw over a socket: the requests fuzzing found (issue 43, and this
 * test), then random encodings of every route (the controllers' and health). No reply is a 5xx, every error reply is
 * the envelope, and nothing is written. The seed is fixed; {@code -Dsdmq.fuzz.seed=N} tries another, and a failure
 * names the one it ran with; {@code -Dsdmq.fuzz.rewrites=N} sends N rewrites of each route instead of 20.
 */
@ExtendWith(OutputCaptureExtension.class)
class PathFuzzIT {
    private static final long SEED = Long.getLong("sdmq.fuzz.seed", 43L);
    private static final int REWRITES_PER_ROUTE = Integer.getInteger("sdmq.fuzz.rewrites", 20);
    private static final String UNKNOWN_ID = "7339155161346838528";

    /** A route: its method, its pattern as the controller maps it, and a request to it that writes nothing. */
    record Route(String method, String pattern, String target) {
    }

    /** Every route of the controllers in {@code web} and health, each with parameters that find no message. */
    static final List<Route> ROUTES = List.of(
            new Route("POST", "/push", "/push"),
            new Route("POST", "/push/batch", "/push/batch"),
            new Route("POST", "/delete", "/delete?jobId=" + UNKNOWN_ID),
            new Route("GET", "/delete", "/delete?topic=fuzz&bizKey=order-1"),
            new Route("POST", "/reschedule", "/reschedule?jobId=" + UNKNOWN_ID + "&delay=1000"),
            new Route("GET", "/get/{topic}", "/get/fuzz?timeout=0&count=1"),
            new Route("POST", "/get/{topic}", "/get/fuzz?timeout=0&count=1&linger=0"),
            new Route("POST", "/finish", "/finish?jobId=" + UNKNOWN_ID),
            new Route("POST", "/nack", "/nack?jobId=" + UNKNOWN_ID + "&delay=1000"),
            new Route("POST", "/touch", "/touch?id=" + UNKNOWN_ID),
            new Route("POST", "/reStore", "/reStore?expire=true"),
            new Route("GET", "/reStore", "/reStore?expire=false"),
            new Route("GET", "/reStore/progress", "/reStore/progress"),
            new Route("GET", "/instances", "/instances"),
            new Route("POST", "/reStoreJob", "/reStoreJob?jobId=" + UNKNOWN_ID + "&expire=true"),
            new Route("GET", "/reStoreJob", "/reStoreJob?id=" + UNKNOWN_ID),
            new Route("GET", "/job/{id}", "/job/" + UNKNOWN_ID),
            new Route("GET", "/topics/{topic}/stats", "/topics/fuzz/stats"),
            new Route("GET", "/topics/{topic}/series", "/topics/fuzz/series?minutes=5"),
            new Route("POST", "/requeue", "/requeue?jobId=" + UNKNOWN_ID),
            new Route("GET", "/topics", "/topics"),
            new Route("GET", "/topics/{topic}", "/topics/fuzz"),
            new Route("PUT", "/topics/{topic}", "/topics/fuzz"),
            new Route("DELETE", "/topics/{topic}", "/topics/fuzz"),
            new Route("POST", "/topics/{topic}/pause", "/topics/fuzz/pause"),
            new Route("POST", "/topics/{topic}/resume", "/topics/fuzz/resume"),
            new Route("GET", "/messages", "/messages?topic=fuzz&status=DELAY&limit=1"),
            new Route("POST", "/messages/run-now", "/messages/run-now"),
            new Route("POST", "/messages/requeue", "/messages/requeue"),
            new Route("POST", "/messages/delete", "/messages/delete"),
            new Route("POST", "/topics/{topic}/purge", "/topics/fuzz/purge"),
            new Route("GET", "/error", "/error"),
            new Route("POST", "/compat/ouqiang/push", "/compat/ouqiang/push"),
            new Route("POST", "/compat/ouqiang/pop", "/compat/ouqiang/pop"),
            new Route("POST", "/compat/ouqiang/finish", "/compat/ouqiang/finish"),
            new Route("POST", "/compat/ouqiang/delete", "/compat/ouqiang/delete"),
            new Route("POST", "/compat/sdmq/push", "/compat/sdmq/push"),
            new Route("POST", "/compat/sdmq/delete", "/compat/sdmq/delete?jobId=" + UNKNOWN_ID),
            new Route("GET", "/compat/sdmq/delete", "/compat/sdmq/delete?id=" + UNKNOWN_ID),
            new Route("POST", "/compat/sdmq/reStore", "/compat/sdmq/reStore?expire=true"),
            new Route("GET", "/compat/sdmq/reStore", "/compat/sdmq/reStore?expire=false"),
            new Route("POST", "/compat/sdmq/reStore/{id}", "/compat/sdmq/reStore/" + UNKNOWN_ID),
            new Route("GET", "/compat/sdmq/reStore/{id}", "/compat/sdmq/reStore/" + UNKNOWN_ID),
            new Route("POST", "/compat/sdmq/reStoreJob", "/compat/sdmq/reStoreJob?jobId=" + UNKNOWN_ID),
            new Route("GET", "/compat/sdmq/reStoreJob", "/compat/sdmq/reStoreJob?jobId=" + UNKNOWN_ID),
            new Route("GET", "/actuator/health", "/actuator/health"),
            new Route("GET", "/actuator/health/**", "/actuator/health/liveness/livenessState"));

    private static WatchedServer watched;
    private static RawHttp http;

    @BeforeAll
    static void startServer() {
        // a short longest wait: a rewrite that drops timeout=0 asks for the default 30 s, and is refused
        watched = WatchedServer.start(Map.of("sdmq.consumer.max-wait", "200ms"));
        http = new RawHttp(watched.server().http().base());
        // a restore's progress key exists before the fuzz, whose restores rewrite it
        assertThat(watched.server().post("/reStore", "").status()).isEqualTo(200);
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    /** A request a fuzz found (issue 43's, or this one), the status it answers and how its message starts. */
    record Found(String method, String target, int status, String messageStart) {
        @Override
        public String toString() {
            return method + " " + target;
        }
    }

    static Stream<Found> foundByFuzzing() {
        return Stream.of(
                new Found("GET", "/get/a%2Fb", 400, "path: must not contain an encoded slash"),
                new Found("GET", "/get/a%5Cb", 400, "path: must not contain a backslash"),
                new Found("GET", "/get/a%00b", 400, "path: must not contain an encoded NUL"),
                new Found("GET", "/get/%C0%AF", 400, "path: must be UTF-8"),
                new Found("GET", "/..", 400, "path: must not climb above the root"),
                new Found("GET", "/get/a\\b", 400, "request target: "),
                new Found("POST", "/push/b;x=1a%4tch", 400, "path: each % must start an escape of two hex digits"),
                new Found("GET", "/actuator/health/..", 404, "no such endpoint"),
                new Found("GET", "/actuator/health/nothing-here", 404, "no such endpoint"),
                new Found("GET", "/actuator/health/nothing/below", 404, "no such endpoint"),
                new Found("GET", "/actuator/health/liveness/nothing/below", 404, "no such endpoint"),
                new Found("GET", "/get/orders?timeout=%zz", 400, "timeout: "),
                new Found("GET", "/get/orders?=0", 400, "query: each parameter must have a name"),
                new Found("GET", "/get/orders?" + "a=1&".repeat(1_000) + "a=1", 400, "parameters: too many"),
                new Found("POST", "/finish?jobId=1%", 400, "jobId: "),
                new Found("GET", "/error", 404, "no such endpoint"),
                new Found("TRACE", "/push", 405, "method: not allowed here"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("foundByFuzzing")
    void each_request_a_fuzz_found_answers_the_envelope_naming_the_rule(Found found) {
        StoreState before = watched.settledState();

        Reply reply = http.send(found.method(), found.target());

        assertThat(reply.status()).as(found + ": " + reply.body()).isEqualTo(found.status());
        assertThat(ErrorEnvelope.messageOf(found.toString(), found.status(), reply.body())).as("message of " + found)
                .startsWith(found.messageStart());
        assertThat(watched.state()).as("MySQL row counts and Redis keys after " + found).isEqualTo(before);
    }

    @Test
    void random_encodings_of_every_route_answer_no_5xx_only_envelopes_and_write_nothing(CapturedOutput output) {
        StoreState before = watched.settledState();
        RandomEncodings encodings = new RandomEncodings(SEED);
        int sent = 0;
        for (int i = 0; i < REWRITES_PER_ROUTE; i++) {
            for (Route route : ROUTES) {
                String target = encodings.mutate(route.target());
                String what = "seed " + SEED + ", request " + sent++ + ": " + route.method() + " " + target;
                Reply reply = http.send(route.method(), target);

                assertThat(reply.status()).as(what + " answered " + reply.body()).isLessThan(500);
                if (reply.status() >= 400) {
                    assertThat(reply.contentType()).as("Content-Type of " + what).startsWith("application/json");
                    ErrorEnvelope.messageOf(what, reply.status(), reply.body());
                }
                assertThat(watched.state()).as("what " + what + " wrote").isEqualTo(before);
            }
        }
        assertThat(watched.settledState()).as("what seed " + SEED + " wrote").isEqualTo(before);
        assertThat(output.getAll()).as("the log of seed " + SEED).doesNotContain(" ERROR ");
    }

    @Test
    void the_fuzz_covers_every_route_of_the_controllers() {
        Set<String> mapped = new TreeSet<>();
        Map<RequestMappingInfo, HandlerMethod> handlers = watched.server().bean("requestMappingHandlerMapping",
                RequestMappingHandlerMapping.class).getHandlerMethods();
        handlers.forEach((info, handler) -> {
            // the dashboard's pages answer HTML, not the envelope; DashboardIT drives them in a browser
            if (handler.getBeanType().getPackageName().startsWith("io.sdmq.server.")
                    && !handler.getBeanType().getPackageName().equals("io.sdmq.server.ui")) {
                Set<String> methods = info.getMethodsCondition().getMethods().stream().map(Enum::name)
                        .collect(Collectors.toSet());
                info.getPatternValues().forEach(p -> (methods.isEmpty() ? Set.of("GET") : methods)
                        .forEach(m -> mapped.add(m + " " + p)));
            }
        });
        Set<String> fuzzed = new TreeSet<>();
        ROUTES.forEach(r -> fuzzed.add(r.method() + " " + r.pattern()));

        assertThat(mapped).isNotEmpty();
        assertThat(fuzzed).containsAll(mapped);
    }
}
