package io.sdmq.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The bench's HTTP/1.1 client: plain keep-alive sockets, one request at a time on each, the request written in one
 * call and the reply read to its end. It exists because the load generator shares the machine's 2 cores with the
 * server it measures: the JDK's {@code HttpURLConnection} spent a quarter of the bench's CPU in its own Java code
 * (URL and header handling, a buffer and a stack trace per call) on top of the socket calls, and the asynchronous
 * {@code java.net.http} client more (BENCHMARKS.md, 2026-11-25 13:00). It speaks only what sdmq answers:
 * a status line, headers, and a body of {@code Content-Length} bytes or in chunks.
 */
final class Http1Client {
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final String host;
    private final int port;
    private final byte[] hostHeader;
    private final Deque<Connection> idle = new ConcurrentLinkedDeque<>();

    Http1Client(URI base) {
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        this.hostHeader = ("Host: " + host + ":" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** A reply: its status code and its body. */
    record Reply(int status, String body) {
    }

    /**
     * One request; the body, when given, is sent as JSON. A kept-alive connection that the server closed while it
     * was idle fails before any byte of a reply arrives; the request is then sent once more on a new connection.
     */
    Reply call(String method, String path, String body, int timeoutMs) throws IOException {
        byte[] request = request(method, path, body);
        Connection reused = idle.pollFirst();
        if (reused != null) {
            try {
                return exchange(reused, request, timeoutMs);
            } catch (StaleConnectionException e) {
                reused.close();
            }
        }
        return exchange(open(), request, timeoutMs);
    }

    private byte[] request(String method, String path, String body) {
        byte[] content = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + (content == null ? 0 : content.length));
        out.writeBytes((method + " " + path + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(hostHeader);
        if (content != null) {
            out.writeBytes(("Content-Type: application/json\r\nContent-Length: " + content.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(content);
        } else {
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    private Connection open() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        return new Connection(socket);
    }

    private Reply exchange(Connection connection, byte[] request, int timeoutMs) throws IOException {
        try {
            connection.socket.setSoTimeout(timeoutMs);
            connection.out.write(request);
            connection.out.flush();
            Reply reply = connection.read();
            if (connection.keepAlive) {
                idle.offerFirst(connection);
            } else {
                connection.close();
            }
            return reply;
        } catch (IOException e) {
            connection.close();
            throw e;
        }
    }

    /** A kept-alive connection that ended before the first byte of a reply: the request can be sent again. */
    private static final class StaleConnectionException extends IOException {
        StaleConnectionException() {
            super("connection closed before a reply");
        }
    }

    private static final class Connection {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final StringBuilder line = new StringBuilder(128);
        private boolean keepAlive;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        }

        Reply read() throws IOException {
            String status = line(true);
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            keepAlive = true;
            for (String header = line(false); !header.isEmpty(); header = line(false)) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
                    case "connection" -> keepAlive = !value.equalsIgnoreCase("close");
                    default -> {
                    }
                }
            }
            byte[] body;
            if (chunked) {
                body = chunks();
            } else if (length >= 0) {
                body = in.readNBytes((int) length);
                if (body.length < length) {
                    throw new EOFException("reply ended after " + body.length + " of " + length + " bytes");
                }
            } else {
                keepAlive = false;
                body = in.readAllBytes();
            }
            return new Reply(code, new String(body, StandardCharsets.UTF_8));
        }

        private byte[] chunks() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int size = chunkSize(); size > 0; size = chunkSize()) {
                byte[] chunk = in.readNBytes(size);
                if (chunk.length < size) {
                    throw new EOFException("chunk ended early");
                }
                body.writeBytes(chunk);
                line(false);
            }
            while (!line(false).isEmpty()) {
                // trailers: none expected, skipped
            }
            return body.toByteArray();
        }

        private int chunkSize() throws IOException {
            String size = line(false);
            int extension = size.indexOf(';');
            return Integer.parseInt(extension < 0 ? size.trim() : size.substring(0, extension).trim(), 16);
        }

        /** One line without its CRLF; at the start of a reply, an end of stream means the connection was stale. */
        private String line(boolean first) throws IOException {
            line.setLength(0);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    if (first && line.isEmpty()) {
                        throw new StaleConnectionException();
                    }
                    throw new EOFException("reply ended in the middle of a line");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing: nothing left to do
            }
        }
    }
}
