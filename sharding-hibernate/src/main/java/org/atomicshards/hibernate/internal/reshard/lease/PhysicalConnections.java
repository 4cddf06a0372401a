package org.atomicshards.hibernate.internal.reshard.lease;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The driver's connection under a pool's proxy, which outlives each lending of it: what resharding keeps per
 * connection (a prepared fence statement, a write lease) is keyed by it.
 */
public final class PhysicalConnections {

    private PhysicalConnections() {
    }

    /** The physical connection under {@code pooled} ({@code pooled} itself if it wraps none). */
    public static Connection of(Connection pooled) throws SQLException {
        return pooled.isWrapperFor(Connection.class) ? pooled.unwrap(Connection.class) : pooled;
    }

    /** Whether {@code connection} is closed; a connection that cannot say is taken as closed. */
    public static boolean isClosed(Connection connection) {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }
}
