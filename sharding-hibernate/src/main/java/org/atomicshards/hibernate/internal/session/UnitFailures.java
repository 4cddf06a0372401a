package org.atomicshards.hibernate.internal.session;

import java.sql.SQLException;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardConnectionLostException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.connection.DeadConnections;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.hibernate.Session;
import org.hibernate.Transaction;
import org.hibernate.TransactionException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.exception.JDBCConnectionException;

/** What a failed unit of work on one shard leaves behind: the rollback, and the exception the caller sees. */
final class UnitFailures {

    private final ShardPools pools;
    private final ShardTimeouts timeouts;

    UnitFailures(ShardPools pools, ShardTimeouts timeouts) {
        this.pools = pools;
        this.timeouts = timeouts;
    }

    /**
     * Rolls back after a failure. A dead connection is aborted instead (evicted from the pool, socket closed): some
     * drivers keep a connection open after a socket timeout, and a rollback sent into a silent network would wait
     * for the socket timeout a second time.
     */
    void rollbackAfterFailure(ShardId shard, Session session, Transaction transaction, RuntimeException failure) {
        if (DeadConnections.isDeadConnection(failure)) {
            var logical = session.unwrap(SharedSessionContractImplementor.class).getJdbcCoordinator()
                    .getLogicalConnection();
            if (logical.isOpen() && logical.isPhysicallyConnected()) {
                pools.abort(shard, logical.getPhysicalConnection());
            }
        }
        try {
            if (transaction.isActive()) {
                transaction.rollback();
            }
        } catch (RuntimeException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    /**
     * A lost connection to the shard's database (a dead-connection SQL state anywhere in the causes, whatever
     * Hibernate wrapped it in, e.g. a failed rollback) becomes a {@link ShardConnectionLostException} naming the
     * shard, and the shard's pool retires its other connections; a transaction that ran out of time becomes a
     * {@link ShardUnavailableException} naming the shard; our own exceptions surface as themselves; anything else is
     * rethrown unchanged.
     *
     * @param committing whether the failure happened in the commit itself (its outcome is then unknown)
     */
    RuntimeException translated(ShardId shard, RuntimeException e, boolean committing) {
        Throwable dead = deadConnectionCause(e);
        if (dead != null) {
            pools.retireConnections(shard);
            return new ShardConnectionLostException("Shard '" + shard + "' is unavailable: its database connection "
                    + "was lost (" + dead.getMessage() + "). " + (committing
                    ? "It was lost during the commit: the unit of work may or may not have been committed; check"
                    + " before running it again. "
                    : "Nothing was committed; the unit of work can be run again (the shard's pool now opens fresh"
                    + " connections). ")
                    + "Units of work on other shards are not affected", shard, committing, e);
        }
        RuntimeException ours = unwrapped(e);
        if (ours != e) {
            return ours;
        }
        if (e instanceof TransactionException && String.valueOf(e.getMessage()).contains("timeout expired")) {
            return timedOut(shard, e);
        }
        return e;
    }

    /** A unit of work that ran out of its transaction timeout (its connection may have been aborted for it). */
    ShardUnavailableException timedOut(ShardId shard, RuntimeException cause) {
        return new ShardUnavailableException("Shard '" + shard + "' did not finish the unit of work within "
                + ShardingSettings.TRANSACTION_TIMEOUT + " = " + timeouts.transactionTimeoutMillis()
                + " ms. Nothing was committed. Units of work on other shards are not affected. Fix: raise "
                + ShardingSettings.TRANSACTION_TIMEOUT + " if the work is just long", cause);
    }

    /** The exception in {@code e}'s causes that says the connection died, or null. */
    private static Throwable deadConnectionCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JDBCConnectionException || t instanceof ShardConnectionLostException
                    || (t instanceof SQLException && DeadConnections.isDeadConnection(t))) {
                Throwable cause = t.getCause();
                return t instanceof SQLException || cause == null ? t : cause;
            }
        }
        for (Throwable suppressed : e.getSuppressed()) {
            if (DeadConnections.isDeadConnection(suppressed)) {
                return deadConnectionCause(suppressed);
            }
        }
        return null;
    }

    /** Our own exceptions surface as themselves, even when Hibernate or JPA wrapped them during a flush. */
    static RuntimeException unwrapped(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AtomicShardsException ours) {
                return ours;
            }
        }
        return e;
    }
}
