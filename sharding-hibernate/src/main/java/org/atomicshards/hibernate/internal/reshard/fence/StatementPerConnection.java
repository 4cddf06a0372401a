package org.atomicshards.hibernate.internal.reshard.fence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.internal.reshard.lease.PhysicalConnections;

/**
 * One statement, prepared once per physical connection and kept open as long as that connection: the fence's locking
 * read, which every unit of work runs. Preparing it anew each time cost as much as running it (H2 does not cache the
 * plan of a locking select; other drivers parse it again or ask the server).
 *
 * <p>Statements are prepared on the physical connection under the pool's proxy, so the pool neither tracks nor closes
 * them when the unit hands its connection back. A statement found closed, or that failed, is prepared again; those of
 * connections the pool has closed are dropped whenever another connection's statement is prepared.
 *
 * <p>Thread-safe. A pool lends a connection to one thread at a time, so a statement is only used by that thread.
 */
public final class StatementPerConnection {

    private final String sql;
    private final Map<Connection, PreparedStatement> statements = new ConcurrentHashMap<>();

    StatementPerConnection(String sql) {
        this.sql = sql;
    }

    /** The statement on {@code connection}'s physical connection; its parameters are those the last user set. */
    PreparedStatement on(Connection connection) throws SQLException {
        Connection physical = PhysicalConnections.of(connection);
        PreparedStatement statement = statements.get(physical);
        if (statement != null && !statement.isClosed()) {
            return statement;
        }
        dropClosedConnections();
        statement = physical.prepareStatement(sql);
        statements.put(physical, statement);
        return statement;
    }

    /** Forgets (and closes) the statement of {@code connection} after it failed: the next use prepares it again. */
    void failed(Connection connection) {
        try {
            PreparedStatement statement = statements.remove(PhysicalConnections.of(connection));
            if (statement != null) {
                statement.close();
            }
        } catch (SQLException ignored) {
            // the connection is broken: its statement is gone with it
        }
    }

    /** How many connections hold a prepared statement (for tests). */
    int size() {
        return statements.size();
    }

    private void dropClosedConnections() {
        statements.keySet().removeIf(PhysicalConnections::isClosed);
    }
}
