package io.sdmq.server;

import io.sdmq.server.RunningServer.Reply;
import io.sdmq.testing.TestServices;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The helper for crash tests: the packaged jar runs as its own process and dies at once on SIGKILL. */
class ServerProcessIT {

    @Test
    void a_packaged_server_starts_answers_and_dies_on_kill_9() {
        String topic = "process-" + ThreadLocalRandom.current().nextInt(1_000_000);
        try (ServerProcess server = ServerProcess.start(TestServices.freshDatabase(), TestServices.redisUrl(),
                TestServices.freshKeyPrefix(), Map.of())) {
            Reply pushed = server.post("/push", "{\"topic\":\"" + topic + "\",\"body\":\"b\",\"delay\":0}");
            assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
            JsonNode got = server.get("/get/" + topic + "?timeout=10000").data();
            assertThat(got).hasSize(1);
            assertThat(got.get(0).get("id").asString()).isEqualTo(pushed.data().asString());

            int exitCode = server.kill9();

            assertThat(exitCode).as("128 + SIGKILL").isEqualTo(137);
            assertThat(server.isAlive()).isFalse();
            assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), server.port()).close())
                    .as("a new connection to its port").isInstanceOf(ConnectException.class);
        }
    }
}
