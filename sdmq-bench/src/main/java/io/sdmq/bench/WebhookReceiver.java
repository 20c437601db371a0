package io.sdmq.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A webhook receiver on 127.0.0.1 (the JDK's HTTP server, a thread per request under way): answers 204 to every
 * POST and tells the tracker of its body. The server under test must allow 127.0.0.1
 * ({@code sdmq.delivery.webhook.allowed-hosts}).
 */
final class WebhookReceiver implements Receiver {
    /** The requests the server keeps under way: the webhook's concurrency. */
    static final int CONCURRENCY = 64;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(CONCURRENCY);
    private final Tracker tracker;

    WebhookReceiver(Tracker tracker) throws IOException {
        this.tracker = tracker;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1_024);
        server.createContext("/hook", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Receiver.received(tracker, exchange.getRequestHeaders().getFirst("webhook-id"), body,
                    exchange.getRequestHeaders().getFirst("sdmq-due-time"));
            exchange.sendResponseHeaders(204, -1);
        }
    }

    @Override
    public String delivery() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("type", "webhook");
        delivery.put("url", "http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
        delivery.put("secrets", List.of("whsec_" + Base64.getEncoder().encodeToString(key)));
        delivery.put("concurrency", CONCURRENCY);
        return JSON.writeValueAsString(delivery);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
