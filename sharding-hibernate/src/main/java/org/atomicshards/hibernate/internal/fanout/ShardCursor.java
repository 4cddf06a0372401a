package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.hibernate.ScrollMode;
import org.hibernate.ScrollableResults;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.Transaction;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.jdbc.Work;
import org.hibernate.query.SelectionQuery;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.resource.jdbc.spi.LogicalConnectionImplementor;

/**
 * One shard's part of a fan-out query: a read-only stateless session on the shard (no persistence context, so
 * streaming holds no entity beyond the buffered rows), when streaming a local read-only transaction (needed for
 * cursor-based fetching on PostgreSQL; never spans shards), the query's scrollable results, and a buffer of at most
 * one fetch of rows.
 *
 * <p>Filled by a worker thread before it is handed over, read by the merging thread afterwards; never used by two
 * threads at once, except {@link #cancel()}, which is meant to be called from another thread.
 */
final class ShardCursor implements AutoCloseable {

    private final ShardId shard;
    private final StatelessSession session;
    private final Transaction transaction;
    private final RowMeter meter;
    private final boolean arrayRows;
    /** Stands for a null row (a scalar query's null value) in the buffer, which cannot hold null. */
    private static final Object NULL_ROW = new Object();

    private final ArrayDeque<Object> buffer = new ArrayDeque<>();
    private volatile ScrollableResults<?> results;
    private boolean exhausted;
    private boolean closed;
    private boolean released;
    /** Whether the cursor switched its connection to auto-commit; switched back before the session releases it. */
    private volatile boolean autoCommitted;
    /** The replica connection the session reads on (given back after the session closes), or null: the primary. */
    private final Connection replica;
    private final ReplicaReads.Reader replicas;

    private ShardCursor(ShardId shard, StatelessSession session, Transaction transaction, RowMeter meter,
                        boolean arrayRows, Connection replica, ReplicaReads.Reader replicas) {
        this.replica = replica;
        this.replicas = replicas;
        this.shard = shard;
        this.session = session;
        this.transaction = transaction;
        this.meter = meter;
        this.arrayRows = arrayRows;
    }

    /**
     * Opens a read-only stateless session on the shard (on a replica fit for the read when {@code replicas} is given
     * and the shard has one, else on its primary); no statement runs yet. A cursor that will be read lazily
     * ({@code streaming}) also gets a local read-only transaction: PostgreSQL's driver fetches in batches only
     * inside one. A cursor read at once needs none and saves the round trips: its connection auto-commits where
     * {@code autoCommitReads} says so (null: never, for a streaming cursor or a result that may not fit in one fetch).
     */
    static ShardCursor open(SessionFactory factory, ShardId shard, RowMeter meter, boolean arrayRows,
                            boolean streaming, AutoCommitReads autoCommitReads, ReplicaReads.Reader replicas) {
        Connection replica = replicas == null ? null : replicas.connection(shard, false);
        StatelessSession session = null;
        try {
            var builder = factory.withStatelessOptions().tenantIdentifier(shard).readOnly(true);
            session = (replica == null ? builder : builder.connection(replica)).openStatelessSession();
            Transaction transaction = streaming ? session.beginTransaction() : null;
            ShardCursor cursor = new ShardCursor(shard, session, transaction, meter, arrayRows, replica, replicas);
            if (autoCommitReads != null) {
                session.doWork(connection -> cursor.autoCommitted = autoCommitReads.apply(shard, connection));
            }
            return cursor;
        }
        catch (RuntimeException e) {
            if (session != null) {
                session.close();
            }
            if (replica != null) {
                replicas.release(replica);
            }
            throw e;
        }
    }

    ShardId shard() {
        return shard;
    }

    /** Runs JDBC work on the cursor's connection (the resharding ownership check). */
    void onConnection(Work work) {
        session.doWork(work);
    }

    /**
     * Runs the statement with the given paging and options and opens a forward-only cursor over its rows.
     *
     * <p>{@code sharePlan}: whether Hibernate may take the statement's plan from its query plan cache, and keep it
     * there, for every statement of its structure ({@link PlanSharing} and {@link ShardStatements#planCacheable} say
     * which may); otherwise it translates the statement for this execution.
     *
     * <p>Sets no JDBC query timeout: the fan-out's deadline bounds the statement already ({@link ShardScatter}
     * cancels a late one and its {@link LateShardReaper} aborts the connection), and drivers pay for a query timeout
     * on every statement. H2 runs a {@code SET QUERY_TIMEOUT} command for it, and any SET empties the parsed-statement
     * cache of every session of that database, so each shard parsed this query and the ownership check's statements
     * again on every fan-out.
     */
    void execute(SqmSelectStatement<?> statement, boolean sharePlan, ParameterBindings bindings, int firstResult,
                 int maxResults, int fetchSize, Map<String, Object> hints) {
        SelectionQuery<?> query = session.createSelectionQuery(statement);
        query.setQueryPlanCacheable(sharePlan);
        hints.forEach(query::setHint);
        bindings.applyTo(query);
        if (firstResult > 0) {
            query.setFirstResult(firstResult);
        }
        if (maxResults >= 0) {
            query.setMaxResults(maxResults);
        }
        query.setFetchSize(fetchSize);
        results = query.scroll(ScrollMode.FORWARD_ONLY);
    }

    /** Reads up to {@code rows} more rows into the buffer; returns false once the shard has no more rows. */
    boolean fill(int rows) {
        int added = 0;
        try {
            while (added < rows && !exhausted) {
                if (results.next()) {
                    buffer.addLast(row(results.get()));
                    added++;
                }
                else {
                    exhausted = true;
                }
            }
        }
        finally {
            meter.add(added);
        }
        return !buffer.isEmpty() || !exhausted;
    }

    /** Column {@code column} of the first buffered row (an array row), or null when nothing is buffered. */
    Object firstBufferedColumn(int column) {
        Object first = buffer.peekFirst();
        return first instanceof Object[] row && column < row.length ? row[column] : null;
    }

    /** Reads every remaining row into the buffer. */
    void fillAll() {
        fill(Integer.MAX_VALUE);
    }

    private Object row(Object value) {
        if (arrayRows && !(value instanceof Object[])) {
            return new Object[] {value};
        }
        return value == null ? NULL_ROW : value;
    }

    /**
     * The next buffered row without consuming it, refilling the buffer with one fetch when empty; null at the end.
     * A null row of a scalar query comes back as a marker: decode it with {@link #rowOf}.
     */
    Object peek(int fetchSize) {
        if (buffer.isEmpty() && !exhausted) {
            fill(fetchSize);
        }
        return buffer.peekFirst();
    }

    /** The row a buffered element stands for (a null row is buffered as a marker). */
    static Object rowOf(Object buffered) {
        return buffered == NULL_ROW ? null : buffered;
    }

    /** Consumes the row {@link #peek} returned (as buffered: see {@link #rowOf}). */
    Object poll() {
        Object row = buffer.pollFirst();
        if (row != null) {
            meter.remove(1);
        }
        return row;
    }

    /** Asks the database to stop the running statement; safe from any thread, never throws. */
    void cancel() {
        try {
            ((SharedSessionContractImplementor) session).getJdbcCoordinator().cancelLastQuery();
        }
        catch (RuntimeException ignored) {
            // The statement may have finished or the connection may be gone: nothing left to cancel.
        }
    }

    /**
     * The JDBC connection the cursor's session holds right now, or null when it holds none (or is closed); for
     * aborting a connection whose statement was abandoned. Safe from any thread, never throws.
     */
    Connection heldConnection() {
        try {
            var logical = ((SharedSessionContractImplementor) session).getJdbcCoordinator().getLogicalConnection();
            return logical.isOpen() && logical.isPhysicallyConnected() ? logical.getPhysicalConnection() : null;
        }
        catch (RuntimeException e) {
            return null; // closed meanwhile: nothing held
        }
    }

    /** Drops the buffered rows and releases the statement, the transaction and the session; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        meter.remove(buffer.size());
        buffer.clear();
        release();
    }

    /**
     * Once every row of the shard is in the buffer, gives the session and its connection back at once, on the thread
     * that read them (a fan-out's worker), rather than when the merged result is closed: the buffered rows need
     * neither. Closing sessions one after the other on the merging thread was half of its time in a count over 64
     * shards. Does nothing while rows are left to read.
     */
    synchronized void releaseIfExhausted() {
        if (exhausted && !closed) {
            release();
        }
    }

    /**
     * Closes the results, ends the read-only transaction (rolls it back), then closes the session; the buffer stays.
     * Idempotent.
     *
     * <p>The order matters: closing the session resets the connection's read-only flag before handing it back to
     * the pool, and PostgreSQL's driver refuses that inside a transaction ("Cannot change transaction read-only
     * property in the middle of a transaction", logged by Hibernate as HHH10003016). The pool's connections do not
     * auto-commit, so a cursor read without a transaction of its own ran its statement in auto-commit where that is
     * free ({@link AutoCommitReads}; the connection's setting is given back here) or else in a transaction that the
     * database opened implicitly: that one is ended on the connection here, with a commit (it only read; H2 parses
     * every statement of a session again after a rollback of a transaction that ran one, about 40 microseconds each),
     * or with a rollback if the commit fails (a failed or cancelled statement).
     */
    private void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (results != null) {
                results.close();
            }
        }
        catch (RuntimeException ignored) {
            // Closing after a failure or cancellation: the session close below releases the connection.
        }
        finally {
            try {
                if (transaction != null && transaction.isActive()) {
                    transaction.rollback();
                }
            }
            catch (RuntimeException ignored) {
                // A failed or cancelled statement may have broken the transaction; closing still releases it.
            }
            try {
                endImplicitTransaction();
            }
            catch (RuntimeException | SQLException ignored) {
                // The connection is broken: the pool discards it when the session below releases it.
            }
            finally {
                session.close();
                if (replica != null) {
                    replicas.release(replica);
                }
            }
        }
    }

    /**
     * Ends what the statement ran in when the session still holds a connection that does not auto-commit, or gives a
     * connection this cursor switched to auto-commit its setting back (units of work take it from the same pool).
     */
    private void endImplicitTransaction() throws SQLException {
        LogicalConnectionImplementor logical =
                ((SharedSessionContractImplementor) session).getJdbcCoordinator().getLogicalConnection();
        if (logical.isPhysicallyConnected()) {
            Connection connection = logical.getPhysicalConnection();
            if (autoCommitted) {
                connection.setAutoCommit(false);
            }
            else if (!connection.getAutoCommit()) {
                try {
                    connection.commit();
                }
                catch (SQLException e) {
                    connection.rollback();
                }
            }
        }
    }
}
