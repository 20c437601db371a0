package io.sdmq.client;

import io.sdmq.embedded.FreePort;
import io.sdmq.testing.ServerJar;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.sdmq.client.TestServer.freshTopic;
import static io.sdmq.client.TestServer.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A push made while the server is not up yet is sent again until it is: the server jar is started on the port the
 * client has been calling, after the client's first attempts were refused. (That a refused call is not retried is
 * in {@link SdmqClientIT}.)
 */
class RetryIT {

    @Test
    void a_push_made_before_the_server_is_up_succeeds_once_it_is_up_within_the_retry_window() {
        int port = FreePort.find();
        String topic = freshTopic();
        SdmqClient client = SdmqClient.builder(URI.create("http://127.0.0.1:" + port)).maxRetries(1_000)
                .retryBackoff(Duration.ofMillis(100)).maxRetryBackoff(Duration.ofMillis(500)).build();
        try (client) {
            CompletableFuture<String> id = client.pushAsync(PushMessage.builder(topic, "early").bizKey("b-1").build());
            await().atMost(Duration.ofSeconds(30)).until(() -> client.stats().retries() >= 2);
            assertThat(id).isNotDone();

            try (ServerJar.Started server = TestServer.start(port)) {
                assertThat(id).succeedsWithin(Duration.ofSeconds(60)).asString().containsOnlyDigits();
                assertThat(receive(client, topic, 1)).extracting(Delivered::id).containsExactly(id.join());
                assertThat(client.stats().batches()).isEqualTo(1);
                assertThat(server.port()).isEqualTo(port);
            }
        }
    }
}
