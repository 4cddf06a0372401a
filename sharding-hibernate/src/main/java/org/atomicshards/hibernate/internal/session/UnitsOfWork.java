package org.atomicshards.hibernate.internal.session;

import java.util.function.Function;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.FlushMode;
import org.hibernate.Session;
import org.hibernate.Transaction;

/**
 * Runs units of work: one shard, one session, one local transaction, bound to the thread ({@link ShardBinding}) so
 * that nested work on the same shard joins it and work on a second shard is rejected before it runs. Also runs the
 * read-only transactions of routed reads and of probes.
 *
 * <p>A unit's transaction begins in {@link #begin}, called by {@link #runNew} right before the unit's work runs.
 */
final class UnitsOfWork {

    private final Object owner;
    private final ShardSessions sessions;
    private final ShardTimeouts timeouts;
    private final UnitFailures failures;
    private final ShardMetrics metrics;

    /**
     * @param owner   the factory whose units these are (its binding owner)
     * @param metrics times each new unit of work and counts the nested ones rejected for another shard
     */
    UnitsOfWork(Object owner, ShardSessions sessions, ShardTimeouts timeouts, UnitFailures failures,
                ShardMetrics metrics) {
        this.owner = owner;
        this.metrics = metrics;
        this.sessions = sessions;
        this.timeouts = timeouts;
        this.failures = failures;
    }

    /** The session of the unit of work running on this thread, or null outside one. */
    Session currentSession() {
        ShardBinding unit = ShardBinding.unitOfWork(owner);
        return unit == null ? null : (Session) unit.session();
    }

    /** The shard of the unit of work running on this thread (a Spring-pinned one too), or null outside one. */
    ShardId currentShard() {
        ShardBinding unit = ShardBinding.unitOfWork(owner);
        return unit == null ? null : unit.shard();
    }

    /**
     * Runs {@code work} in the unit of work of {@code shard}: joins the current one, or opens a session and a
     * transaction, runs the work, flushes and commits.
     *
     * @param unit the unit's root entity (simple name), for the metrics
     * @param what what the work does, for the message if it would reach a second shard ("persist Order")
     * @throws org.atomicshards.hibernate.CrossShardUnitOfWorkException inside a unit of work on another shard
     */
    <R> R run(ShardId shard, String unit, String what, Function<Session, R> work) {
        ShardBinding current;
        try {
            current = ShardBinding.join(owner, shard, what);
        } catch (CrossShardUnitOfWorkException rejected) {
            metrics.guardRejection(rejected);
            throw rejected;
        }
        if (current != null && current.session() != null) {
            return work.apply((Session) current.session());
        }
        if (!metrics.enabled()) {
            return runNewSession(shard, work);
        }
        long start = System.nanoTime();
        try {
            R result = runNewSession(shard, work);
            metrics.unitOfWork(shard, unit, null, System.nanoTime() - start);
            return result;
        } catch (RuntimeException | Error e) {
            metrics.unitOfWork(shard, unit, e, System.nanoTime() - start);
            throw e;
        }
    }

    private <R> R runNewSession(ShardId shard, Function<Session, R> work) {
        try (Session session = sessions.open(shard)) {
            return ShardBinding.inNewUnitOfWork(owner, shard, session, () -> runNew(shard, session, work));
        }
    }

    private <R> R runNew(ShardId shard, Session session, Function<Session, R> work) {
        Transaction transaction = session.getTransaction();
        boolean committing = false;
        try {
            begin(transaction);
            R result = work.apply(session);
            if (session.getHibernateFlushMode() != FlushMode.MANUAL) {
                session.flush(); // the guards run here; a rejection surfaces through translated()
            }
            committing = true;
            transaction.commit();
            return result;
        } catch (RuntimeException e) {
            failures.rollbackAfterFailure(shard, session, transaction, e);
            throw failures.translated(shard, e, committing);
        }
    }

    /**
     * Begins the unit's transaction with the transaction timeout: every statement gets the time left as its JDBC
     * query timeout, and none starts once it has run out.
     */
    private void begin(Transaction transaction) {
        transaction.setTimeout(ShardTimeouts.seconds(timeouts.transactionTimeoutMillis()));
        transaction.begin();
    }

    /** Runs {@code work} in a read-only session and transaction of {@code shard}, rolled back afterwards. */
    <R> R readOnShard(ShardId shard, Function<Session, R> work) {
        try (Session session = sessions.openReadOnly(shard)) {
            Transaction transaction = session.getTransaction();
            R result;
            try {
                begin(transaction);
                result = work.apply(session);
            } catch (RuntimeException e) {
                failures.rollbackAfterFailure(shard, session, transaction, e);
                throw failures.translated(shard, e, false);
            }
            transaction.rollback();
            return result;
        } catch (RuntimeException e) {
            throw failures.translated(shard, e, false);
        }
    }
}
