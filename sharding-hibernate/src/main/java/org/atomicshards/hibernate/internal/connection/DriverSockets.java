package org.atomicshards.hibernate.internal.connection;

import java.lang.reflect.Field;
import java.net.Socket;
import java.sql.Connection;

/**
 * A driver connection's socket: closed at once for drivers whose {@link Connection#abort} does not, and read to tell
 * whether the connection reaches its database server directly ({@link #socket}).
 *
 * <p>H2's embedded connection does nothing on {@code abort}: its session is cancelled instead, which ends a running
 * query.
 *
 * <p>MariaDB Connector/J's {@code abort}, when a statement is running on the connection, first opens a new
 * connection to send {@code KILL} and only then closes the socket: on a silent network that new connection waits
 * for the connect timeout, and the thread blocked on the statement waits with it (issue 15: a running unit of work
 * failed 2 to 6 s after the socket timeout). Connector/J 3 has no public way to close the socket alone.
 *
 * <p>Connector/J does not expose its socket, so private fields are read reflectively (Connector/J's
 * {@code StandardClient.socket}); when that fails (another driver version, a module
 * that forbids it) nothing happens and the caller aborts as before.
 */
public final class DriverSockets {

    private static final String MARIADB_CONNECTION = "org.mariadb.jdbc.Connection";
    private static final String POSTGRESQL_CONNECTION = "org.postgresql.jdbc.PgConnection";
    private static final String H2_CONNECTION = "org.h2.jdbc.JdbcConnection";
    private static final String H2_REMOTE_SESSION = "org.h2.engine.SessionRemote";

    private DriverSockets() {
    }

    /**
     * Closes {@code raw}'s socket if its driver is one that needs it (MariaDB Connector/J), or cancels an
     * embedded H2 session's statement; never throws.
     *
     * @param raw the driver's own connection, not a pool's proxy
     * @return whether a socket was closed (or the H2 session cancelled)
     */
    static boolean closeSocket(Connection raw) {
        try {
            String type = raw.getClass().getName();
            if (MARIADB_CONNECTION.equals(type)) {
                Object client = raw.getClass().getMethod("getClient").invoke(raw);
                return close((Socket) field(client, "socket"));
            }
            if (H2_CONNECTION.equals(type)) {
                Object session = raw.getClass().getMethod("getSession").invoke(raw);
                if (session != null && !H2_REMOTE_SESSION.equals(session.getClass().getName())) {
                    // Embedded: no socket, and abort does nothing; cancelling the session ends a running query
                    // (not a lock wait: H2's LOCK_TIMEOUT bounds those).
                    session.getClass().getMethod("cancel").invoke(session);
                    return true;
                }
                // H2 over TCP is left alone: closing its socket ended the read, but the pool then kept the
                // connection busy (NetworkChaosTest), so a silent network still blocks H2 clients.
            }
            return false;
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The socket of {@code raw}, the driver's own connection: pgjdbc's ({@code QueryExecutorBase.pgStream}, read
     * reflectively) or MariaDB Connector/J's; null for another driver, an embedded database, or when the driver's
     * internals are not where this version expects them. Never throws.
     */
    public static Socket socket(Connection raw) {
        try {
            String type = raw.getClass().getName();
            if (MARIADB_CONNECTION.equals(type)) {
                return (Socket) field(raw.getClass().getMethod("getClient").invoke(raw), "socket");
            }
            if (POSTGRESQL_CONNECTION.equals(type)) {
                Object executor = raw.getClass().getMethod("getQueryExecutor").invoke(raw);
                Object stream = field(executor, "pgStream");
                return (Socket) stream.getClass().getMethod("getSocket").invoke(stream);
            }
            return null;
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static boolean close(Socket socket) {
        if (socket == null) {
            return false;
        }
        try {
            socket.close();
            return true;
        }
        catch (java.io.IOException e) {
            return false;
        }
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> type = owner.getClass(); type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    field.setAccessible(true);
                    return field.get(owner);
                }
            }
        }
        throw new NoSuchFieldException(name);
    }
}
