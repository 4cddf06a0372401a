package org.atomicshards.hibernate.internal.reshard.lease;

import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.internal.connection.DriverSockets;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;

/**
 * Tells whether a connection reaches its database server directly, so that the server session it started with stays
 * its own for as long as it lives. A write lease names that session ({@link ConnectionLeases}), and an operation takes
 * the lease back by waiting for that session to end, or ending it. Behind a pooler that gives each transaction of a
 * client whichever server session is free (PgBouncer in transaction or statement mode, ProxySQL, RDS Proxy), the
 * named session is not the one the connection's later units of work run in: ending it neither stops them (a stalled
 * instance would write into a moving virtual shard without the fence) nor spares the other clients using it.
 *
 * <p>The proof asked for: the server sees the session's client at the address and port of this connection's socket,
 * and the server's own port is the one the socket connects to. A pooler or proxy in between, or an address
 * translation that rewrites ports, makes them differ; such a connection is fenced instead of leased, which costs its
 * units of work one locking read each and is never unsafe. An embedded H2 database has no network in between, and no
 * pooler multiplexes H2's server sessions: H2 connections count as direct.
 */
public final class DirectConnections {

    private static final String POSTGRESQL_PEER =
            "select host(inet_client_addr()), inet_client_port(), inet_server_port()";
    private static final String MARIADB_PEER =
            "select host, @@port from information_schema.processlist where id = connection_id()";
    private static final Pattern IP_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}|.*:.*");

    /** Where the server sees a session's client, and the server's own port; null where it sees none. */
    record ServerView(String clientHost, Integer clientPort, Integer serverPort) {
    }

    private DirectConnections() {
    }

    /**
     * Null if {@code pooled} (a pool's connection to a shard of kind {@code sql}) reaches the server directly; else
     * why that is not known, for the operator. Runs one statement on the connection, in the caller's transaction.
     */
    static String whyNotDirect(ShardSql sql, Connection pooled) throws SQLException {
        if (sql == ShardSql.H2) {
            return null;
        }
        Connection raw = PhysicalConnections.of(pooled);
        Socket socket = DriverSockets.socket(raw);
        if (socket == null || socket.getInetAddress() == null) {
            return "the socket of its driver (" + raw.getClass().getName() + ") could not be read, so it is not known "
                    + "to reach the server directly";
        }
        return whyNotDirect(serverView(sql, pooled), socket.getLocalAddress(), socket.getLocalPort(),
                socket.getPort());
    }

    /**
     * Null if the server's {@code view} of a session matches the socket running from {@code localAddress}:{@code
     * localPort} to port {@code remotePort}; else what differs.
     */
    static String whyNotDirect(ServerView view, InetAddress localAddress, int localPort, int remotePort) {
        if (view.clientHost() == null || view.clientPort() == null || view.serverPort() == null) {
            return "the database server sees no network address for its session (a local socket?)";
        }
        boolean samePorts = view.clientPort() == localPort && view.serverPort() == remotePort;
        if (samePorts && sameHost(view.clientHost(), localAddress)) {
            return null;
        }
        return "the database server sees its session coming from " + view.clientHost() + ":" + view.clientPort()
                + " to port " + view.serverPort() + ", while its socket runs from " + localAddress.getHostAddress()
                + ":" + localPort + " to port " + remotePort + ": a connection pooler or proxy (PgBouncer, ProxySQL, "
                + "a TCP proxy) sits between them";
    }

    /** Whether {@code host}, as the server names it, is {@code address}; a host name is not compared. */
    private static boolean sameHost(String host, InetAddress address) {
        if (!IP_LITERAL.matcher(host).matches()) {
            return true; // MariaDB names clients by host name unless it skips name resolution: the ports decide
        }
        try {
            return InetAddress.getByName(host).equals(address);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static ServerView serverView(ShardSql sql, Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql == ShardSql.POSTGRESQL ? POSTGRESQL_PEER
                : MARIADB_PEER); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return new ServerView(null, null, null);
            }
            if (sql == ShardSql.POSTGRESQL) {
                return new ServerView(rs.getString(1), (Integer) rs.getObject(2), (Integer) rs.getObject(3));
            }
            return mariaDbView(rs.getString(1), rs.getInt(2));
        }
    }

    /** MariaDB's {@code processlist.host}: {@code host:port} for a TCP client, {@code localhost} for a local socket. */
    static ServerView mariaDbView(String host, int serverPort) {
        int colon = host == null ? -1 : host.lastIndexOf(':');
        if (colon <= 0) {
            return new ServerView(null, null, serverPort);
        }
        try {
            String name = host.substring(0, colon);
            if (name.startsWith("[") && name.endsWith("]")) {
                name = name.substring(1, name.length() - 1);
            }
            return new ServerView(name, Integer.parseInt(host.substring(colon + 1)), serverPort);
        } catch (NumberFormatException e) {
            return new ServerView(null, null, serverPort);
        }
    }
}
