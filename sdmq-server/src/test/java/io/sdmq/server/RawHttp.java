package io.sdmq.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One HTTP/1.1 request written byte for byte on a connection of its own, so that its request target reaches Tomcat
 * exactly as written: no client library normalises, re-encodes or refuses it first. Each character of the target is
 * sent as one byte (ISO-8859-1).
 */
final class RawHttp {
    private static final int TIMEOUT_MS = 30_000;

    private final InetSocketAddress server;

    /** For the server at {@code base}, e.g. {@code http://127.0.0.1:8080}. */
    RawHttp(String base) {
        URI uri = URI.create(base);
        this.server = new InetSocketAddress(uri.getHost(), uri.getPort());
    }

    /** A reply: its status, its Content-Type (null when it has none) and its body, de-chunked. */
    record Reply(int status, String contentType, String body) {
    }

    /** Sends {@code method target} with no body (a JSON content type on a POST) and reads the whole reply. */
    Reply send(String method, String target) {
        String head = method + " " + target + " HTTP/1.1\r\nHost: " + server.getHostString() + ":" + server.getPort()
                + "\r\nConnection: close\r\nContent-Length: 0\r\n"
                + (method.equals("POST") ? "Content-Type: application/json\r\n" : "") + "\r\n";
        try (Socket socket = new Socket()) {
            socket.connect(server, TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target + " failed", e);
        }
    }

    private static Reply parse(byte[] reply) {
        String text = new String(reply, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalStateException("not an HTTP reply: " + text);
        }
        String[] head = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(head[0].split(" ")[1]);
        String contentType = null;
        boolean chunked = false;
        for (String header : Arrays.copyOfRange(head, 1, head.length)) {
            String name = header.substring(0, header.indexOf(':')).toLowerCase(Locale.ROOT);
            String value = header.substring(header.indexOf(':') + 1).strip();
            contentType = name.equals("content-type") ? value : contentType;
            chunked |= name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked");
        }
        byte[] body = Arrays.copyOfRange(reply, end + 4, reply.length);
        return new Reply(status, contentType, new String(chunked ? dechunked(body) : body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunked(byte[] body) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = text.indexOf("\r\n", at);
            int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].strip(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(body, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    }
}
