package org.atomicshards.hibernate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PgBouncer process in transaction mode in front of a PostgreSQL server, for tests: each transaction of a client
 * runs in whichever server session is free. Needs the {@code pgbouncer} binary ({@code apt-get install pgbouncer};
 * {@code .ci/run} installs it); as root it runs as the {@code postgres} user, since PgBouncer refuses to run as root.
 */
final class PgBouncer implements AutoCloseable {

    private static final List<Path> BINARIES = List.of(Paths.get("/usr/sbin/pgbouncer"),
            Paths.get("/usr/bin/pgbouncer"), Paths.get("/usr/local/bin/pgbouncer"));

    private final Path directory;
    private final Process process;
    private final int port;

    private PgBouncer(Path directory, Process process, int port) {
        this.directory = directory;
        this.process = process;
        this.port = port;
    }

    /** Starts PgBouncer on a free local port, pooling at most {@code serverSessions} sessions per database. */
    static PgBouncer inTransactionMode(String serverHost, int serverPort, String user, int serverSessions) {
        Path binary = BINARIES.stream().filter(Files::isExecutable).findFirst().orElseThrow(() ->
                new IllegalStateException("pgbouncer is not installed (looked in " + BINARIES + "). Fix: apt-get "
                        + "install pgbouncer, as .ci/run does"));
        try {
            Path directory = Files.createTempDirectory("pgbouncer", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwxr-xr-x")));
            int port = freePort();
            Path users = Files.writeString(directory.resolve("users.txt"), '"' + user + "\" \"\"\n");
            Path ini = Files.writeString(directory.resolve("pgbouncer.ini"), String.join("\n",
                    "[databases]",
                    "* = host=" + serverHost + " port=" + serverPort,
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    "listen_port = " + port,
                    "unix_socket_dir =",
                    "auth_type = trust",
                    "auth_file = " + users,
                    "pool_mode = transaction",
                    "default_pool_size = " + serverSessions,
                    "max_client_conn = 500",
                    "ignore_startup_parameters = extra_float_digits,options",
                    ""));
            for (Path file : List.of(users, ini)) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            }
            List<String> command = new ArrayList<>(List.of(binary.toString()));
            if ("root".equals(System.getProperty("user.name"))) {
                command.addAll(List.of("-u", "postgres"));
            }
            command.add(ini.toString());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(directory.resolve("pgbouncer.log").toFile()).start();
            PgBouncer bouncer = new PgBouncer(directory, process, port);
            bouncer.awaitListening();
            return bouncer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code url} (a PostgreSQL JDBC URL) through this PgBouncer, with the driver's server-side prepares off. */
    String route(String url) {
        URI uri = URI.create(url.substring("jdbc:".length()));
        String query = uri.getRawQuery();
        return "jdbc:postgresql://127.0.0.1:" + port + uri.getRawPath() + "?"
                + (query == null ? "" : query + "&") + "prepareThreshold=0";
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    close();
                    throw new IOException("PgBouncer did not start listening on port " + port + ": "
                            + Files.readString(directory.resolve("pgbouncer.log")), notYet);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("Interrupted while PgBouncer started", e);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
