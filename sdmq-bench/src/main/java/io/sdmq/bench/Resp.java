package io.sdmq.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A minimal Redis client speaking RESP over one socket. {@link #send} only buffers a command, so a caller
 * pipelines by sending many commands, calling {@link #flush} once and reading one reply per command.
 */
final class Resp implements Closeable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** Connects to a {@code redis://host:port} URL (no password, database 0). */
    Resp(String url) throws IOException {
        URI uri = URI.create(url);
        socket = new Socket(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(60_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    }

    void send(String... args) throws IOException {
        writeLine('*', args.length);
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            writeLine('$', bytes.length);
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /** One command, sent and answered. */
    Object call(String... args) throws IOException {
        send(args);
        flush();
        return read();
    }

    /** The next reply: a String, a Long, null, or a List of those; an error reply throws. */
    Object read() throws IOException {
        int type = in.read();
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IOException("Redis: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                List<Object> items = new ArrayList<>(Math.max(count, 0));
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return count < 0 ? null : items;
            }
            case -1:
                throw new EOFException("Redis closed the connection");
            default:
                throw new IOException("unexpected RESP type " + (char) type);
        }
    }

    /** Every key matching a SCAN pattern, once (SCAN may return a key twice). */
    List<String> keys(String pattern) throws IOException {
        Set<String> keys = new LinkedHashSet<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) reply.get(0);
            for (Object key : (List<?>) reply.get(1)) {
                keys.add((String) key);
            }
        } while (!cursor.equals("0"));
        return new ArrayList<>(keys);
    }

    private void writeLine(char type, int number) throws IOException {
        out.write(type);
        out.write(Integer.toString(number).getBytes(StandardCharsets.US_ASCII));
        out.write('\r');
        out.write('\n');
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\r') {
            if (b == -1) {
                throw new EOFException("Redis closed the connection");
            }
            line.write(b);
        }
        in.read();
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
