package io.sdmq.bench;

import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A webhook receiver on 127.0.0.1: plain keep-alive sockets, a thread reading each connection's requests one after
 * another, answering 204 to each and telling the tracker of its body. It exists because it shares the machine's two
 * cores with the server it measures: the JDK's {@code HttpServer} hands every request from its selector thread to a
 * worker and the connection back, which cost the bench ~0.2 ms of CPU per delivery (W8, 2026-11-27). It speaks only
 * what a webhook sends: a request line, headers, and a body of {@code Content-Length} bytes. The server under test
 * must allow 127.0.0.1 ({@code sdmq.delivery.webhook.allowed-hosts}).
 */
final class WebhookReceiver implements Receiver {
    /** The requests the server keeps under way: the webhook's concurrency. */
    static final int CONCURRENCY = 64;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] NO_CONTENT = "HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Tracker tracker;

    WebhookReceiver(Tracker tracker) throws IOException {
        this.tracker = tracker;
        listener = new ServerSocket(0, 1_024, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptAll, "webhook-receiver");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptAll() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                socket.setTcpNoDelay(true);
                open.add(socket);
                Thread reader = new Thread(() -> serve(socket), "webhook-receiver-" + socket.getPort());
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Answers the connection's requests until the server closes it. */
    private void serve(Socket socket) {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
             OutputStream out = socket.getOutputStream()) {
            StringBuilder line = new StringBuilder(128);
            while (line(in, line) != null) {
                String id = null;
                String due = null;
                int length = 0;
                for (String header = line(in, line); header != null && !header.isEmpty(); header = line(in, line)) {
                    int colon = header.indexOf(':');
                    String value = header.substring(colon + 1).trim();
                    switch (header.substring(0, colon).trim().toLowerCase(Locale.ROOT)) {
                        case "webhook-id" -> id = value;
                        case "sdmq-due-time" -> due = value;
                        case "content-length" -> length = Integer.parseInt(value);
                        default -> {
                        }
                    }
                }
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                Receiver.received(tracker, id, body, due);
                out.write(NO_CONTENT);
                out.flush();
            }
        } catch (IOException e) {
            // the server closed the connection, or the receiver was closed
        } finally {
            open.remove(socket);
        }
    }

    /** The next line without its CR LF, or null at the end of the stream before any byte of it. */
    private static String line(InputStream in, StringBuilder line) throws IOException {
        line.setLength(0);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                if (line.isEmpty()) {
                    return null;
                }
                throw new EOFException("the connection ended within a line");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public String delivery() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("type", "webhook");
        delivery.put("url", "http://127.0.0.1:" + listener.getLocalPort() + "/hook");
        delivery.put("secrets", List.of("whsec_" + Base64.getEncoder().encodeToString(key)));
        delivery.put("concurrency", CONCURRENCY);
        return JSON.writeValueAsString(delivery);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
