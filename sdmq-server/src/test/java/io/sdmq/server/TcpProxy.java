package io.sdmq.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a random loopback port to {@code host:port}, for cutting a server off from a backing service.
 * {@link #cut()} closes every open connection and closes each new one as soon as it is accepted (the port stays
 * bound, so clients see their connection dropped, as with a dead peer, rather than a refused one); {@link #restore()}
 * forwards again. {@link #freeze()} leaves every open connection open but forwards nothing more on it, while new
 * connections work: a peer that died without a word, as when a database host fails over to another. One thread
 * accepts; each connection has two threads pumping bytes.
 */
final class TcpProxy implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 2_000;

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    /** Connections opened before the last freeze forward nothing. */
    private volatile int generation;

    private TcpProxy(String targetHost, int targetPort, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = listener;
    }

    static TcpProxy to(String host, int port) {
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            TcpProxy proxy = new TcpProxy(host, port, listener);
            Thread acceptor = new Thread(proxy::acceptAll, "tcp-proxy-" + listener.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("no loopback port for the proxy", e);
        }
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Drops every connection through the proxy and every new one until {@link #restore()}. */
    void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    void restore() {
        cut = false;
    }

    /** From now on the connections open now forward nothing, but stay open; new ones forward. */
    void freeze() {
        generation++;
    }

    /** How many sockets (both sides of each connection) are open now. */
    int openSockets() {
        return open.size();
    }

    @Override
    public void close() {
        closeQuietly(listener);
        cut();
    }

    private void acceptAll() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            Socket target = new Socket();
            try {
                target.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MS);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(target);
                continue;
            }
            open.add(client);
            open.add(target);
            if (cut) {
                cut();
                continue;
            }
            int born = generation;
            pump(client, target, born, "up");
            pump(target, client, born, "down");
        }
    }

    private void pump(Socket from, Socket to, int born, String direction) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    while (born != generation && !to.isClosed()) {
                        Thread.sleep(50);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection was cut or closed by a peer: close both sides below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-" + port() + "-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing is best effort: the socket is unusable either way
        }
    }
}
