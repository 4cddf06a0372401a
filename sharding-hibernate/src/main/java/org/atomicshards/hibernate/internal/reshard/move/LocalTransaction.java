package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.SQLException;

import org.atomicshards.hibernate.internal.reshard.fence.StepGuard;

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
        run(connection, StepGuard.NONE, work);
    }

    /** {@link #run(Connection, Work)}, its first statements {@code guard}'s check. */
    public static void run(Connection connection, StepGuard guard, Work work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            guard.check(connection);
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
