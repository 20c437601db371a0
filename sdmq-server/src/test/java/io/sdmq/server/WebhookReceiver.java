package io.sdmq.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver for tests, on 127.0.0.1: records every request (its message id, attempt, due time, when it
 * came and what was answered), answers 204 after {@code answerAfterMs}, and notes any request that came for a message
 * while another request for it was still being answered (a message sent twice at once).
 */
final class WebhookReceiver implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final long answerAfterMs;
    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    private final Set<String> underWay = ConcurrentHashMap.newKeySet();
    private final Queue<String> sentTwiceAtOnce = new ConcurrentLinkedQueue<>();
    private final Map<String, Integer> answered2xx = new ConcurrentHashMap<>();
    private final AtomicInteger received = new AtomicInteger();

    /** One request: the message's id, attempt and due time (epoch ms), and when it came (epoch ms). */
    record Request(String id, int attempt, long dueTime, long at) {
    }

    WebhookReceiver(long answerAfterMs) throws IOException {
        this.answerAfterMs = answerAfterMs;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1_024);
        server.createContext("/hook", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
            long at = System.currentTimeMillis();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            if (!underWay.add(id)) {
                sentTwiceAtOnce.add(id);
            }
            requests.add(new Request(id, Integer.parseInt(exchange.getRequestHeaders().getFirst("sdmq-attempt")),
                    Long.parseLong(exchange.getRequestHeaders().getFirst("sdmq-due-time")), at));
            received.incrementAndGet();
            try {
                Thread.sleep(answerAfterMs);
                exchange.sendResponseHeaders(204, -1);
                answered2xx.merge(id, 1, Integer::sum);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                underWay.remove(id);
            }
        }
    }

    /** The delivery settings that point a topic at this receiver, with a fresh secret and this timeout (ms). */
    String delivery(long timeoutMs) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return "{\"type\":\"webhook\",\"url\":\"http://127.0.0.1:" + server.getAddress().getPort()
                + "/hook\",\"timeout\":" + timeoutMs + ",\"secrets\":[\"whsec_"
                + Base64.getEncoder().encodeToString(key) + "\"]}";
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    int received() {
        return received.get();
    }

    /** The ids of the messages this receiver answered 2xx, with how often. */
    Map<String, Integer> answered2xx() {
        return Map.copyOf(answered2xx);
    }

    /** Ids of messages a request came for while another for the same message was under way. */
    List<String> sentTwiceAtOnce() {
        return List.copyOf(sentTwiceAtOnce);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
