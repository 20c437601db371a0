package io.sdmq.server;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** What every error reply is: sdmq's envelope with the status as its code, leaking nothing of the server's insides. */
final class ErrorEnvelope {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What no client may see: stack traces, SQL, class and package names, Tomcat's HTML. */
    private static final List<String> INTERNALS = List.of("java.", "javax.", "jakarta.", "io.sdmq",
            "org.springframework", "org.apache", "tools.jackson", "com.fasterxml", "Exception", "Caused by", "\tat ",
            "SELECT", "INSERT", "UPDATE ", "DELETE FROM", "sdmq_message", "<html", "Tomcat");

    private ErrorEnvelope() {
    }

    /** Asserts that {@code body}, the reply to {@code what}, is the error envelope of {@code status}; its message. */
    static String messageOf(String what, int status, String body) {
        for (String internal : INTERNALS) {
            assertThat(body).as("reply to " + what + " leaks internals").doesNotContain(internal);
        }
        JsonNode envelope = parse(what, body);
        assertThat(envelope.path("success").toString()).as("success of " + what).isEqualTo("false");
        assertThat(envelope.path("code").toString()).as("code of " + what).isEqualTo(Integer.toString(status));
        assertThat(envelope.has("data") && envelope.get("data").isNull()).as("data of " + what + " is null").isTrue();
        assertThat(envelope.path("message").isString()).as("message of " + what + " is a string").isTrue();
        String message = envelope.get("message").asString();
        assertThat(message).as("message of " + what).isNotBlank();
        return message;
    }

    private static JsonNode parse(String what, String body) {
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            return fail("reply to " + what + " is not JSON: " + body);
        }
    }
}
