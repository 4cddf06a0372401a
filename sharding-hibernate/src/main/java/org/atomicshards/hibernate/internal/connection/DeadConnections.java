package org.atomicshards.hibernate.internal.connection;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

import org.atomicshards.hibernate.ShardConnectionLostException;
import org.hibernate.JDBCException;
import org.hibernate.engine.jdbc.spi.SqlExceptionHelper;
import org.hibernate.exception.spi.SQLExceptionConverter;

/**
 * Recognises a dead database connection in a {@link SQLException} and makes Hibernate throw it as a
 * {@link ShardConnectionLostException} instead of a {@link JDBCException}.
 *
 * <p>Why not a {@code JDBCException}: on PostgreSQL every failed statement marks the transaction rollback-only
 * ({@code Dialect.causesRollback}), and {@code Session.find} then swallows any {@code JDBCException} and returns
 * null (Hibernate's HHH-12472 workaround for application servers). A dead connection would read as a missing row.
 * An exception of another type passes through {@code find} unchanged.
 */
public final class DeadConnections implements SQLExceptionConverter {

    private static final long serialVersionUID = 1L;

    /**
     * SQL states of a connection the server ended: PostgreSQL's admin shutdown, crash shutdown and cannot-connect-now,
     * H2's "connection broken"; every state of class 08 (connection exception) as well.
     */
    private static final Set<String> DEAD_STATES = Set.of("57P01", "57P02", "57P03", "90067");

    /** HikariCP's message for a call on a connection it has already found broken and closed (no SQL state). */
    private static final String POOL_CLOSED_CONNECTION = "Connection is closed";

    private final SQLExceptionConverter delegate;

    private DeadConnections(SQLExceptionConverter delegate) {
        this.delegate = delegate;
    }

    /** Puts the check in front of the converter of {@code helper}; idempotent. */
    public static void install(SqlExceptionHelper helper) {
        if (!(helper.getSqlExceptionConverter() instanceof DeadConnections)) {
            helper.setSqlExceptionConverter(new DeadConnections(helper.getSqlExceptionConverter()));
        }
    }

    /** Whether {@code failure} or one of its causes says the connection is dead. */
    public static boolean isDeadConnection(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ShardConnectionLostException) {
                return true;
            }
            if (t instanceof SQLException sql && isDead(sql)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDead(SQLException e) {
        String state = e.getSQLState();
        if (state != null) {
            return state.startsWith("08") || DEAD_STATES.contains(state);
        }
        return e instanceof SQLNonTransientConnectionException || e instanceof SQLRecoverableException
                || e instanceof SQLTransientConnectionException || POOL_CLOSED_CONNECTION.equals(e.getMessage());
    }

    @Override
    public JDBCException convert(SQLException exception, String message, String sql) {
        if (isDead(exception)) {
            throw new ShardConnectionLostException("The database connection was lost (" + exception.getMessage()
                    + ") while running: " + message, null, false, exception);
        }
        return delegate.convert(exception, message, sql);
    }
}
