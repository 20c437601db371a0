package io.sdmq.server;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The helper for Redis fault tests: a Redis that stops and comes back, empty, on the same port. */
class RedisProcessIT {

    @Test
    void a_stopped_redis_refuses_connections_and_comes_back_empty_on_the_same_port() throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            int port = redis.port();
            assertThat(command(port, "SET k v")).isEqualTo("+OK");
            assertThat(command(port, "GET k")).isEqualTo("$1");

            redis.stop();

            assertThat(redis.running()).isFalse();
            assertThatThrownBy(() -> command(port, "PING")).isInstanceOf(ConnectException.class);

            redis.startAgain();

            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + port);
            assertThat(command(port, "PING")).isEqualTo("+PONG");
            assertThat(command(port, "GET k")).as("nil: the data went with the stop").isEqualTo("$-1");
        }
    }

    /** Sends one inline command and answers the first line of the reply. */
    private static String command(int port, String command) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
        }
    }
}
