package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One local transaction of a move's step on one shard: committed when the work returns, rolled back when it throws,
 * the connection left in autocommit either way.
 */
public final class LocalTransaction {

    /** The work of the transaction. */
    @FunctionalInterface
    public interface Work {
        void run() throws SQLException;
    }

    private LocalTransaction() {
    }

    public static void run(Connection connection, Work work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            work.run();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
