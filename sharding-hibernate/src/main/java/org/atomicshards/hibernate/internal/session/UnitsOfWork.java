package org.atomicshards.hibernate.internal.session;

import java.util.function.Function;
import java.util.function.Supplier;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
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
    private final UnitDeadlines deadlines;
    private final UnitFailures failures;
    private final WriteFence fence;
    private final ShardMetrics metrics;

    /**
     * @param owner   the factory whose units these are (its binding owner)
     * @param fence   the ownership fence every new unit of work passes first (online resharding)
     * @param metrics times each new unit of work and counts the nested ones rejected for another shard
     */
    UnitsOfWork(Object owner, ShardSessions sessions, UnitDeadlines deadlines, UnitFailures failures,
                WriteFence fence, ShardMetrics metrics) {
        this.owner = owner;
        this.metrics = metrics;
        this.sessions = sessions;
        this.deadlines = deadlines;
        this.failures = failures;
        this.fence = fence;
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
     * @param what what the work does, for the message if it would reach a second shard ("persist Order"); built only
     *             for that message
     * @throws org.atomicshards.hibernate.CrossShardUnitOfWorkException inside a unit of work on another shard
     */
    <R> R run(ShardId shard, String unit, Supplier<String> what, Function<Session, R> work) {
        return run(shard, unit, what, 0, null, work);
    }

    /**
     * As {@link #run(ShardId, String, Supplier, Function)}; a new unit of work first passes the shard's ownership fence
     * for the target {@code fenceTarget} gives (null, or a null target: the shard's fence only), inside its transaction
     * and before {@code work} runs. The target is built only for a connection without a write lease.
     *
     * @param routedWith the map version read before the key was routed to {@code shard}
     * @throws org.atomicshards.hibernate.internal.reshard.fence.FenceRejection if the shard no longer or not yet owns the
     *         target (nothing ran; the caller may route again and retry)
     */
    <R> R run(ShardId shard, String unit, Supplier<String> what, int routedWith, Supplier<FenceTarget> fenceTarget,
              Function<Session, R> work) {
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
            return runNewSession(shard, routedWith, fenceTarget, work);
        }
        long start = System.nanoTime();
        try {
            R result = runNewSession(shard, routedWith, fenceTarget, work);
            metrics.unitOfWork(shard, unit, null, System.nanoTime() - start);
            return result;
        } catch (RuntimeException | Error e) {
            metrics.unitOfWork(shard, unit, e, System.nanoTime() - start);
            throw e;
        }
    }

    private <R> R runNewSession(ShardId shard, int routedWith, Supplier<FenceTarget> fenceTarget,
                                Function<Session, R> work) {
        try (Session session = sessions.open(shard)) {
            return ShardBinding.inNewUnitOfWork(owner, shard, session,
                    () -> runNew(shard, session, routedWith, fenceTarget, work));
        }
    }

    private <R> R runNew(ShardId shard, Session session, int routedWith, Supplier<FenceTarget> fenceTarget,
                         Function<Session, R> work) {
        Transaction transaction = session.getTransaction();
        UnitDeadlines.Deadline deadline = null;
        boolean committing = false;
        boolean lateForCommit = false;
        try {
            deadline = begin(shard, session, transaction);
            fence.enterUnit(session, shard, routedWith, fenceTarget);
            R result = work.apply(session);
            if (session.getHibernateFlushMode() != FlushMode.MANUAL) {
                session.flush(); // the guards run here; a rejection surfaces through translated()
                // nothing runs between this flush and the commit: spare the commit a second, empty flush (a dirty
                // check of every entity of the unit again, about 3 % of a small unit of work)
                session.setHibernateFlushMode(FlushMode.MANUAL);
            }
            if (deadline.end()) {
                lateForCommit = true;
                throw failures.timedOut(shard, null);
            }
            committing = true;
            transaction.commit();
            return result;
        } catch (RuntimeException e) {
            boolean outOfTime = deadline != null && deadline.end();
            failures.rollbackAfterFailure(shard, session, transaction, e);
            throw lateForCommit ? e
                    : outOfTime && !committing ? failures.timedOut(shard, e) : failures.translated(shard, e, committing);
        }
    }

    /**
     * Begins the unit's transaction under the transaction timeout's watchdog ({@link UnitDeadlines}): past the
     * deadline the unit's connection is aborted and the unit is rolled back. No per-statement query timeout: drivers
     * pay for one on every statement.
     */
    private UnitDeadlines.Deadline begin(ShardId shard, Session session, Transaction transaction) {
        transaction.begin();
        return deadlines.begin(shard, session);
    }

    /** Runs {@code work} in a read-only session and transaction of {@code shard}, rolled back afterwards. */
    <R> R readOnShard(ShardId shard, Function<Session, R> work) {
        try (Session session = sessions.openReadOnly(shard)) {
            Transaction transaction = session.getTransaction();
            UnitDeadlines.Deadline deadline = null;
            R result;
            try {
                deadline = begin(shard, session, transaction);
                result = work.apply(session);
            } catch (RuntimeException e) {
                boolean outOfTime = deadline != null && deadline.end();
                failures.rollbackAfterFailure(shard, session, transaction, e);
                throw outOfTime ? failures.timedOut(shard, e) : failures.translated(shard, e, false);
            }
            deadline.end();
            transaction.rollback();
            return result;
        } catch (RuntimeException e) {
            throw failures.translated(shard, e, false);
        }
    }
}
