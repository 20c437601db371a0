package io.sdmq.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static io.sdmq.server.OuqiangCalls.failed;
import static io.sdmq.server.OuqiangCalls.push;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bad request to an ouqiang route answers as ouqiang answers one (HTTP 200, code 1, null data), with a message
 * that names the field and the rule, at once (a pop refused does not wait), and writes nothing to MySQL or Redis.
 */
class OuqiangBadInputIT {
    private static final String PUSH = "/compat/ouqiang/push";
    private static final String POP = "/compat/ouqiang/pop";
    private static final String FINISH = "/compat/ouqiang/finish";
    private static final String DELETE = "/compat/ouqiang/delete";
    private static final long YEAR_SECONDS = 365 * 86_400L;

    private static WatchedServer watched;

    /** A request, the field its message must name first, and why it is bad. */
    record Bad(String what, String path, String body, String field) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Bad> badRequests() {
        return Stream.of(
                new Bad("push without topic", PUSH, "{\"id\":\"b-1\",\"delay\":60,\"ttr\":30,\"body\":\"x\"}", "topic"),
                new Bad("push with a blank topic", PUSH, push("  ", "b-1", 60, 30, "x"), "topic"),
                new Bad("push with a space in the topic", PUSH, push("order timeout", "b-1", 60, 30, "x"), "topic"),
                new Bad("push without id", PUSH, "{\"topic\":\"bad\",\"delay\":60,\"ttr\":30,\"body\":\"x\"}", "id"),
                new Bad("push with a 129-character id", PUSH, push("bad", "k".repeat(129), 60, 30, "x"), "id"),
                new Bad("push with a number as id", PUSH, "{\"topic\":\"bad\",\"id\":42,\"delay\":60,\"ttr\":30}",
                        "id"),
                new Bad("push without delay", PUSH, "{\"topic\":\"bad\",\"id\":\"b-1\",\"ttr\":30}", "delay"),
                new Bad("push with a negative delay", PUSH, push("bad", "b-1", -1, 30, "x"), "delay"),
                new Bad("push with delay 0, which ouqiang refuses", PUSH, push("bad", "b-1", 0, 30, "x"), "delay"),
                new Bad("push with a delay beyond 365 days", PUSH, push("bad", "b-1", YEAR_SECONDS + 1, 30, "x"),
                        "delay"),
                new Bad("push with a fractional delay", PUSH,
                        "{\"topic\":\"bad\",\"id\":\"b-1\",\"delay\":1.5,\"ttr\":30}", "delay"),
                new Bad("push with delay as a string", PUSH,
                        "{\"topic\":\"bad\",\"id\":\"b-1\",\"delay\":\"60\",\"ttr\":30}", "delay"),
                new Bad("push with ttr 0", PUSH, push("bad", "b-1", 60, 0, "x"), "ttr"),
                new Bad("push with a ttr beyond sdmq's 12 h", PUSH, push("bad", "b-1", 60, 43_201, "x"), "ttr"),
                new Bad("push with a number as body", PUSH,
                        "{\"topic\":\"bad\",\"id\":\"b-1\",\"delay\":60,\"ttr\":30,\"body\":7}", "body"),
                new Bad("push with a body over 64 KB", PUSH, push("bad", "b-1", 60, 30, "x".repeat(65_537)), "body"),
                new Bad("push of a request body over 6 times the largest message body", PUSH,
                        push("bad", "b-1", 60, 30, "x".repeat(400_000)), "request body"),
                new Bad("push of a form, not JSON", PUSH, "topic=bad&id=b-1&delay=60&ttr=30", "request body"),
                new Bad("push of malformed JSON", PUSH, "{\"topic\":\"bad\",", "request body"),
                new Bad("push of a JSON array", PUSH, "[" + push("bad", "b-1", 60, 30, "x") + "]", "request body"),
                new Bad("push of nothing", PUSH, "", "request body"),
                new Bad("pop without topic", POP, "{}", "topic"),
                new Bad("pop of two topics, which sdmq cannot wait on", POP, "{\"topic\":\"bad,worse\"}", "topic"),
                new Bad("pop of a topic with a slash", POP, "{\"topic\":\"bad/worse\"}", "topic"),
                new Bad("pop of text", POP, "bad", "request body"),
                new Bad("finish without id", FINISH, "{\"topic\":\"bad\"}", "id"),
                new Bad("finish of an unknown id", FINISH, "{\"id\":\"never-pushed\"}", "id"),
                new Bad("finish of an unknown sdmq-looking id", FINISH, "{\"id\":\"7339155161346838528\"}", "id"),
                new Bad("finish of the JSON literal null", FINISH, "null", "request body"),
                new Bad("delete of an unknown id", DELETE, "{\"id\":\"never-pushed\"}", "id"),
                new Bad("delete with a number as id", DELETE, "{\"id\":42}", "id"),
                new Bad("delete of a blank id", DELETE, "{\"id\":\" \"}", "id"));
    }

    @BeforeAll
    static void startServer() {
        watched = WatchedServer.start(Map.of());
    }

    @AfterAll
    static void stopServer() {
        if (watched != null) {
            watched.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void a_bad_request_answers_code_1_naming_the_field_at_once_and_writes_nothing(Bad bad) {
        StoreState before = watched.settledState();
        long started = System.nanoTime();

        String message = failed(watched.server().http().postAs(bad.path(), "application/json", bad.body()));

        assertThat(message).as(bad.what()).startsWith(bad.field() + ": ");
        assertThat((System.nanoTime() - started) / 1_000_000).as("ms before the answer to " + bad).isLessThan(5_000);
        assertThat(watched.state()).as("MySQL row counts and Redis keys after " + bad).isEqualTo(before);
    }
}
