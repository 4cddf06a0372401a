package org.atomicshards.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy on the loopback interface that stands between a shard's JDBC URL and its database server and breaks
 * the network on command, the way real networks break:
 *
 * <ul>
 *   <li>{@link #pass()}: bytes flow both ways (the initial state);</li>
 *   <li>{@link #refuse()}: new connections are refused (the listening socket is closed, so a connect fails at
 *       once); existing connections keep working;</li>
 *   <li>{@link #blackHole()}: connections are accepted and kept open, but no byte goes through in either direction
 *       and nothing is ever closed: the silence of a dropped route. Like TCP retransmission after a partition heals,
 *       the bytes held back are delivered once {@link #pass()} is called again;</li>
 *   <li>{@link #cut()}: every existing connection is reset (closed abruptly, with an RST); new ones are accepted.</li>
 * </ul>
 *
 * Bounded: at most {@code maxConnections} proxied connections (two daemon threads each); more are reset at once.
 * It stops itself after {@code lifetime} even if a test forgets to {@link #close()} it.
 */
public final class ChaosProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("^(jdbc:[a-z0-9]+(?::tcp)?://)([^/:;?]+)(?::(\\d+))?");
    private static final int DEFAULT_MAX_CONNECTIONS = 64;
    private static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(5);

    private enum Mode { PASS, REFUSE, BLACK_HOLE }

    private final InetSocketAddress target;
    private final int port;
    private final Semaphore connectionSlots;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService reaper;
    private final ThreadFactory threads;
    private final Object modeLock = new Object();
    private Mode mode = Mode.PASS;
    private ServerSocket listener;
    private boolean closed;

    private ChaosProxy(InetSocketAddress target, int maxConnections, Duration lifetime) throws IOException {
        this.target = target;
        this.connectionSlots = new Semaphore(maxConnections);
        AtomicInteger count = new AtomicInteger();
        this.threads = runnable -> {
            Thread thread = new Thread(runnable, "chaos-proxy-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        this.listener = listenBelowEphemeralPorts();
        this.port = listener.getLocalPort();
        startAccepting(listener);
        this.reaper = Executors.newSingleThreadScheduledExecutor(threads);
        reaper.schedule(this::close, lifetime.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A proxy to {@code host:port} with at most 64 connections, stopping itself after 5 minutes. */
    public static ChaosProxy start(String host, int port) {
        return start(host, port, DEFAULT_MAX_CONNECTIONS, DEFAULT_LIFETIME);
    }

    public static ChaosProxy start(String host, int port, int maxConnections, Duration lifetime) {
        try {
            return new ChaosProxy(new InetSocketAddress(host, port), maxConnections, lifetime);
        }
        catch (IOException e) {
            throw new IllegalStateException("Cannot open a loopback port for the chaos proxy", e);
        }
    }

    /**
     * A proxy to the server of {@code jdbcUrl} ({@code jdbc:postgresql://host:port/..}, {@code jdbc:mariadb://..},
     * {@code jdbc:h2:tcp://..}); use {@link #route(String)} to point the URL at it.
     */
    public static ChaosProxy forUrl(String jdbcUrl) {
        Matcher m = hostPort(jdbcUrl);
        int defaultPort = jdbcUrl.startsWith("jdbc:postgresql:") ? 5432 : jdbcUrl.startsWith("jdbc:h2:") ? 9092 : 3306;
        return start(m.group(2), m.group(3) == null ? defaultPort : Integer.parseInt(m.group(3)));
    }

    /** {@code jdbcUrl} with its host and port replaced by this proxy's loopback address. */
    public String route(String jdbcUrl) {
        Matcher m = hostPort(jdbcUrl);
        return m.group(1) + "127.0.0.1:" + port + jdbcUrl.substring(m.end());
    }

    private static Matcher hostPort(String jdbcUrl) {
        Matcher m = HOST_PORT.matcher(jdbcUrl);
        if (!m.find()) {
            throw new IllegalArgumentException("Not a JDBC URL with a host: " + jdbcUrl);
        }
        return m;
    }

    public int port() {
        return port;
    }

    /** Connections currently proxied (in any mode). */
    public int openConnections() {
        return links.size();
    }

    /** Lets bytes flow again, delivering what a black hole held back; accepts new connections. */
    public void pass() {
        setMode(Mode.PASS);
    }

    /** Refuses new connections; existing ones keep working. */
    public void refuse() {
        setMode(Mode.REFUSE);
    }

    /** Accepts and keeps connections but lets no byte through, in either direction; closes nothing. */
    public void blackHole() {
        setMode(Mode.BLACK_HOLE);
    }

    /** Resets every existing connection at once; the mode does not change. */
    public void cut() {
        for (Link link : links) {
            link.reset();
        }
    }

    private void setMode(Mode next) {
        ServerSocket toClose = null;
        synchronized (modeLock) {
            if (closed) {
                throw new IllegalStateException("The chaos proxy is closed");
            }
            mode = next;
            if (next == Mode.REFUSE) {
                toClose = listener;
                listener = null;
            }
            else if (listener == null) {
                listener = listenAgain();
                startAccepting(listener);
            }
            modeLock.notifyAll();
        }
        closeQuietly(toClose);
    }

    /**
     * A listener on a port below the operating systems' ephemeral ranges (Linux 32768-60999, macOS and Windows from
     * 49152): {@link #refuse()} closes it and {@link #pass()} listens on the same port again, and an ephemeral port
     * could meanwhile have become the local port of some outgoing connection ("Cannot listen on port ... again").
     */
    private static ServerSocket listenBelowEphemeralPorts() throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                return listen(random.nextInt(20_000, 32_000));
            }
            catch (IOException taken) {
                // another listener has it: try another
            }
        }
        return listen(0);
    }

    /**
     * The proxy's port again, after {@link #refuse()} closed it: retried for up to a second, since the kernel may
     * still report the port in use for a moment after the close ("Address already in use", seen once in a full build).
     */
    private ServerSocket listenAgain() {
        IOException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                return listen(port);
            }
            catch (IOException e) {
                last = e;
                try {
                    Thread.sleep(50);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new IllegalStateException("Cannot listen on port " + port + " again", last);
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        return socket;
    }

    private void startAccepting(ServerSocket socket) {
        threads.newThread(() -> accept(socket)).start();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            }
            catch (IOException e) {
                return; // closed by refuse() or close()
            }
            if (!connectionSlots.tryAcquire()) {
                reset(client);
                continue;
            }
            threads.newThread(() -> connect(client)).start();
        }
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            awaitFlow();
            server.connect(target, 5_000);
        }
        catch (IOException | InterruptedException e) {
            closeQuietly(server);
            reset(client);
            connectionSlots.release();
            return;
        }
        Link link = new Link(client, server);
        links.add(link);
        threads.newThread(() -> pump(link, client, server)).start();
        pump(link, server, client);
    }

    /** Copies bytes from {@code from} to {@code to}, holding them while the network is a black hole. */
    private void pump(Link link, Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                awaitFlow();
                out.write(buffer, 0, read);
                out.flush();
            }
            awaitFlow(); // a black hole swallows the end of the stream too
        }
        catch (IOException | InterruptedException e) {
            // one side went away (or was reset): the link ends
        }
        finally {
            link.close();
        }
    }

    /** Blocks while the proxy is a black hole. */
    private void awaitFlow() throws InterruptedException {
        synchronized (modeLock) {
            while (mode == Mode.BLACK_HOLE && !closed) {
                modeLock.wait();
            }
        }
    }

    /** Closes every connection and the listening socket; the threads end. Idempotent. */
    @Override
    public void close() {
        ServerSocket toClose;
        synchronized (modeLock) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = listener;
            listener = null;
            modeLock.notifyAll();
        }
        closeQuietly(toClose);
        cut();
        reaper.shutdownNow();
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        }
        catch (SocketException ignored) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (Exception ignored) {
            // nothing more to do
        }
    }

    /** A proxied connection: the client's socket and ours to the server. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private boolean done;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void reset() {
            ChaosProxy.reset(client);
            ChaosProxy.reset(server);
            close();
        }

        void close() {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
            }
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
            connectionSlots.release();
        }
    }
}
