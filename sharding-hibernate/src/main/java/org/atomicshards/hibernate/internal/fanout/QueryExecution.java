package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.reshard.fence.FanOutOwnership;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * One run of a fan-out query: the query unchanged on its only target shard, or its merge plan's shard statement on
 * every target (paging pushed down where the plan allows, the query's own OFFSET/FETCH applied after the merge),
 * merged. Holds the shards' open cursors and the merged rows over them; closing releases the shards.
 */
final class QueryExecution implements AutoCloseable {

    final FanOutRun run;
    final Iterator<Object> rows;

    private QueryExecution(FanOutRun run, Iterator<Object> rows) {
        this.run = run;
        this.rows = rows;
    }

    @Override
    public void close() {
        run.close();
    }

    /**
     * Runs the query on the targets (reading everything, or one fetch per shard when streaming), on the shards'
     * replicas where {@code fromReplicas} (each shard without a fit replica on its primary).
     */
    static QueryExecution start(ShardedQueryImpl<?> query, List<ShardId> targets, int max, boolean readAll,
                                FanOutOwnership.Attempt check, boolean fromReplicas) {
        FanOutEngine engine = query.engine();
        ParameterBindings bindings = query.bindings();
        int firstResult = query.firstResult();
        Duration timeout = query.timeout();
        ExecutionPolicy policy = query.policy();
        int fetchSize = query.fetchSize();
        RowMeter meter = new RowMeter();
        List<ShardFailure> failures = new ArrayList<>();
        Map<String, Object> shardHints = query.shardHints();
        ReplicaReads replicaReads = fromReplicas ? engine.replicaReads() : null;
        ReplicaReads.Reader replicas = replicaReads == null ? null : replicaReads.forThisThread();
        if (targets.size() == 1 && query.runsAsWrittenOnOneShard()) {
            SqmSelectStatement<?> single = query.statement().copy(SqmCopyContext.noParamCopyContext());
            boolean sharePlan = PlanSharing.shareableAsWritten(single) && ShardStatements.planCacheable(single);
            AutoCommitReads autoCommit = readAll && withinOneFetch(max, fetchSize) ? engine.autoCommitReads() : null;
            List<ShardCursor> cursors = scatter(engine, targets, targets.size(), (shard, register) -> {
                ShardCursor cursor = ShardCursor.open(engine.sessionFactory(), shard, meter, false, !readAll,
                        autoCommit, replicas);
                register.accept(cursor);
                before(cursor, check);
                cursor.execute(single, sharePlan, bindings, firstResult, max, fetchSize, shardHints);
                prefetch(cursor, readAll, fetchSize);
                after(cursor, check, -1);
                cursor.releaseIfExhausted();
                return cursor;
            }, timeout, policy, failures);
            FanOutRun run = new FanOutRun(cursors, failures, policy, fetchSize, 1, meter);
            return new QueryExecution(run, new SingleShardRows(run));
        }
        MergePlan merge = query.plan();
        FanOutEngine.StringCheck strings = engine.checkStringComparisons(merge, targets, policy, failures);
        List<ShardId> reachable = strings.targets();
        long first = firstResult;
        long limit = max;
        long treeOffset = treeValue(merge.offsetExpression, bindings);
        long treeFetch = treeValue(merge.fetchExpression, bindings);
        if (treeOffset >= 0 || treeFetch >= 0) {
            if (firstResult > 0 || max >= 0) {
                throw new UnsupportedFanOutQueryException("OFFSET/FETCH in the query together with"
                        + " setFirstResult/setMaxResults", "Use one of the two ways to page.");
            }
            first = Math.max(0, treeOffset);
            limit = treeFetch;
        }
        int shardMax = merge.pushesPagingDown() && limit >= 0 ? (int) Math.min(Integer.MAX_VALUE, first + limit) : -1;
        boolean onDemand = readAll && policy == ExecutionPolicy.COMPLETE && withinOneFetch(shardMax, fetchSize);
        boolean epochInStatement = check != null && merge.readsEpochInStatement(shardMax);
        SqmSelectStatement<Object[]> shardStatement = epochInStatement ? merge.shardStatementWithEpoch
                : merge.shardStatement;
        boolean oneFetch = withinOneFetch(shardMax, fetchSize) || merge.global;
        AutoCommitReads autoCommit = readAll && oneFetch ? engine.autoCommitReads() : null;
        int epochColumn = epochInStatement ? merge.epochColumn() : -1;
        // One statement for every shard, as Hibernate shares one parsed HQL statement between sessions: creating a
        // query and translating it only read the tree (a copy per shard cost about 1.7 KiB per shard and query).
        List<ShardCursor> cursors = scatter(engine, reachable, targets.size(), (shard, register) -> {
            ShardCursor cursor = ShardCursor.open(engine.sessionFactory(), shard, meter, true, !readAll, autoCommit,
                    replicas);
            register.accept(cursor);
            before(cursor, check);
            cursor.execute(shardStatement, merge.sharesPlan, bindings, 0, shardMax, fetchSize, shardHints);
            if (onDemand) {
                cursor.fill(1);
            }
            else {
                prefetch(cursor, readAll, fetchSize);
            }
            after(cursor, check, epochColumn);
            cursor.releaseIfExhausted();
            return cursor;
        }, timeout, policy, failures);
        FanOutRun run = new FanOutRun(cursors, failures, policy, onDemand ? 1 : fetchSize, targets.size(), meter);
        try {
            return new QueryExecution(run, engine.merge(merge, strings.strings()).rows(run, bindings, first, limit));
        }
        catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /**
     * Whether a statement returning at most {@code rows} rows ({@code -1}: unbounded) completes in its first round
     * trip: fewer rows than a fetch (PostgreSQL's and MariaDB's drivers fetch that many at once).
     *
     * <p>Such shards' rows are turned into results only as the merge consumes them (after the first row of each shard,
     * read by its worker): the merge keeps at most first + max of the shards x (first + max) rows, so reading on demand
     * makes entities (and converts values) of those and of one head row per shard, not of every row each shard
     * returned, and the rows read later need no round trip after the fan-out's deadline. Only under COMPLETE: a row
     * that fails to load then fails the query as it did in the worker, where under PARTIAL the shard's earlier rows
     * would already be in the result. Such a statement also runs in auto-commit where that saves a round trip
     * ({@link AutoCommitReads}).
     */
    static boolean withinOneFetch(int rows, int fetchSize) {
        return rows >= 0 && rows < fetchSize;
    }

    /** The resharding ownership check reads the shard's claims before its query (null: no check). */
    private static void before(ShardCursor cursor, FanOutOwnership.Attempt check) {
        if (check != null) {
            cursor.onConnection(connection -> check.before(cursor.shard(), connection));
        }
    }

    /**
     * ... and its ownership epoch as of the query's snapshot: from the first row's {@code epochColumn} when the
     * statement selected it and returned a row, else read on the connection after the query's first rows (one more
     * round trip).
     */
    private static void after(ShardCursor cursor, FanOutOwnership.Attempt check, int epochColumn) {
        if (check == null) {
            return;
        }
        Object epoch = epochColumn < 0 ? null : cursor.firstBufferedColumn(epochColumn);
        if (epoch instanceof Number known) {
            cursor.onConnection(connection -> check.after(cursor.shard(), known.longValue(), connection));
        }
        else {
            cursor.onConnection(connection -> check.after(cursor.shard(), connection));
        }
    }

    /** The shards that answered. */
    List<ShardId> answered() {
        return run.cursors().stream().map(ShardCursor::shard).toList();
    }

    /**
     * Scatters {@code task} over {@code shards}, timing the query (until every shard answered or failed) and each
     * shard's part when metrics are on.
     *
     * @param asked the shards the query was routed to (before shards were dropped for an unknown string order)
     */
    private static List<ShardCursor> scatter(FanOutEngine engine, List<ShardId> shards, int asked,
                                             ShardScatter.ShardTask task, Duration timeout, ExecutionPolicy policy,
                                             List<ShardFailure> failures) {
        ShardMetrics metrics = engine.metrics();
        if (!metrics.enabled()) {
            return engine.scatter().scatter(shards, task, timeout, policy, failures);
        }
        ShardScatter.ShardTask timed = (shard, register) -> {
            long start = System.nanoTime();
            try {
                ShardCursor cursor = task.run(shard, register);
                metrics.fanOutShard(shard, null, System.nanoTime() - start);
                return cursor;
            } catch (RuntimeException | Error e) {
                metrics.fanOutShard(shard, e, System.nanoTime() - start);
                throw e;
            }
        };
        boolean pruned = asked < engine.router().shards().size();
        long start = System.nanoTime();
        try {
            List<ShardCursor> cursors = engine.scatter().scatter(shards, timed, timeout, policy, failures);
            metrics.fanOut(asked, pruned, !failures.isEmpty(), null, System.nanoTime() - start);
            return cursors;
        } catch (RuntimeException | Error e) {
            metrics.fanOut(asked, pruned, !failures.isEmpty(), e, System.nanoTime() - start);
            throw e;
        }
    }

    private static void prefetch(ShardCursor cursor, boolean readAll, int fetchSize) {
        if (readAll) {
            cursor.fillAll();
        }
        else {
            cursor.fill(fetchSize);
        }
    }

    private static long treeValue(SqmExpression<?> expression, ParameterBindings bindings) {
        if (expression == null) {
            return -1;
        }
        Object value = expression instanceof SqmLiteral<?> literal ? literal.getLiteralValue()
                : expression instanceof SqmParameter<?> parameter ? bindings.valueOf(parameter) : null;
        if (!(value instanceof Number number)) {
            throw new UnsupportedFanOutQueryException("OFFSET/FETCH given by " + expression.toHqlString(),
                    "Use a literal or a bound parameter, or setFirstResult/setMaxResults.");
        }
        return number.longValue();
    }

    /** The rows of the only target shard, as Hibernate returned them. */
    private static final class SingleShardRows implements Iterator<Object> {
        private final FanOutRun run;

        SingleShardRows(FanOutRun run) {
            this.run = run;
        }

        @Override
        public boolean hasNext() {
            return !run.cursors().isEmpty() && run.peek(run.cursors().get(0)) != null;
        }

        @Override
        public Object next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return ShardCursor.rowOf(run.poll(run.cursors().get(0)));
        }
    }
}
