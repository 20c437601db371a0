package io.sdmq.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A webhook receiver for tests: the JDK's HTTP server on 127.0.0.1, which records every request it gets (headers,
 * raw body, its own clock at arrival) and answers as the test's function says.
 */
final class WebhookReceiver implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(16);
    private final Queue<Received> received = new ConcurrentLinkedQueue<>();
    private final Function<Received, Answer> answers;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final Set<String> underWay = ConcurrentHashMap.newKeySet();
    private final Queue<String> sentTwiceAtOnce = new ConcurrentLinkedQueue<>();

    private WebhookReceiver(int port, Function<Received, Answer> answers) {
        this.answers = answers;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** A receiver on a free port answering each request with {@code answers}. */
    static WebhookReceiver start(Function<Received, Answer> answers) {
        return new WebhookReceiver(0, answers);
    }

    /** A receiver on that port. */
    static WebhookReceiver startOn(int port, Function<Received, Answer> answers) {
        return new WebhookReceiver(port, answers);
    }

    /** Its URL, at path {@code /hook}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** Every request so far, in the order they came. */
    List<Received> received() {
        return List.copyOf(received);
    }

    /** The requests for one message id, in the order they came. */
    List<Received> of(String id) {
        return received.stream().filter(r -> id.equals(r.header("webhook-id"))).toList();
    }

    /**
     * The most requests it held at once, each from its arrival to just before its answer goes out: the sender cannot
     * have an answer while the request still counts.
     */
    int maxInFlight() {
        return maxInFlight.get();
    }

    /** Ids of messages a request came for while another request for the same message was still held here. */
    List<String> sentTwiceAtOnce() {
        return List.copyOf(sentTwiceAtOnce);
    }

    private void handle(HttpExchange exchange) throws IOException {
        long at = System.currentTimeMillis();
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                String.join(",", values)));
        Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers,
                body, at);
        received.add(request);
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        String id = request.header("webhook-id");
        if (!underWay.add(id)) {
            sentTwiceAtOnce.add(id);
        }
        Answer answer;
        try {
            answer = answers.apply(request);
        } finally {
            underWay.remove(id);
            inFlight.decrementAndGet();
        }
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] reply = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), reply.length == 0 ? -1 : reply.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    /** One request as it arrived: lower-case header names, the raw body, the receiver's clock at arrival (ms). */
    record Received(String method, String path, Map<String, String> headers, byte[] body, long at) {
        String header(String name) {
            return headers.get(name);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        long attempt() {
            return Long.parseLong(header("sdmq-attempt"));
        }

        long dueTime() {
            return Long.parseLong(header("sdmq-due-time"));
        }
    }

    /** What the receiver answers. */
    record Answer(int status, Map<String, String> headers, String body) {
        static Answer ok() {
            return new Answer(200, Map.of(), "");
        }

        static Answer of(int status, String body) {
            return new Answer(status, Map.of(), body);
        }
    }
}
