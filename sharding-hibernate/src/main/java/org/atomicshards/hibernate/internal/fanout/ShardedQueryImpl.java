package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import jakarta.persistence.NoResultException;
import jakarta.persistence.NonUniqueResultException;
import jakarta.persistence.Parameter;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.FanOutResult;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.ShardedResultStream;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * A fan-out query: prunes the target shards with the bound parameters, runs the query unchanged on a single
 * target, or runs the planned shard statement on every target and merges.
 */
final class ShardedQueryImpl<T> implements ShardedQuery<T> {

    static final String HINT_TIMEOUT_MILLIS = "jakarta.persistence.query.timeout";
    static final String HINT_HIBERNATE_TIMEOUT_SECONDS = "org.hibernate.timeout";
    static final String HINT_FETCH_SIZE = "org.hibernate.fetchSize";
    static final String HINT_READ_ONLY = "org.hibernate.readOnly";
    static final String HINT_POLICY = "org.atomicshards.executionPolicy";

    private final FanOutEngine engine;
    private final SqmSelectStatement<T> statement;
    private final ParameterBindings bindings = new ParameterBindings();
    private final Map<String, Object> hints = new LinkedHashMap<>();
    private int firstResult;
    private int maxResults = -1;
    private Duration timeout;
    private ExecutionPolicy policy;
    private int fetchSize;
    private MergePlan plan;

    ShardedQueryImpl(FanOutEngine engine, SqmSelectStatement<T> statement) {
        this.engine = engine;
        this.statement = statement;
        this.timeout = engine.settings().timeout();
        this.policy = engine.settings().policy();
        this.fetchSize = engine.settings().fetchSize();
    }

    SqmSelectStatement<T> statement() {
        return statement;
    }

    ParameterBindings bindings() {
        return bindings;
    }

    Duration timeout() {
        return timeout;
    }

    int firstResult() {
        return firstResult;
    }

    int maxResults() {
        return maxResults;
    }

    Map<String, Object> hints() {
        Map<String, Object> all = new LinkedHashMap<>(hints);
        all.put(HINT_TIMEOUT_MILLIS, timeout.toMillis());
        all.put(HINT_POLICY, policy);
        all.put(HINT_FETCH_SIZE, fetchSize);
        return all;
    }

    @Override
    public ShardedQuery<T> setFirstResult(int firstResult) {
        if (firstResult < 0) {
            throw new IllegalArgumentException("firstResult must not be negative: " + firstResult);
        }
        this.firstResult = firstResult;
        return this;
    }

    @Override
    public ShardedQuery<T> setMaxResults(int maxResults) {
        if (maxResults < 0) {
            throw new IllegalArgumentException("maxResults must not be negative: " + maxResults);
        }
        this.maxResults = maxResults;
        return this;
    }

    @Override
    public ShardedQuery<T> setParameter(String name, Object value) {
        bindings.bind(name, value);
        return this;
    }

    @Override
    public ShardedQuery<T> setParameter(int position, Object value) {
        bindings.bind(position, value);
        return this;
    }

    @Override
    public <P> ShardedQuery<T> setParameter(Parameter<P> parameter, P value) {
        bindings.bind(parameter, value);
        return this;
    }

    @Override
    public ShardedQuery<T> setTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("The fan-out timeout must be a positive duration: " + timeout);
        }
        this.timeout = timeout;
        return this;
    }

    @Override
    public ShardedQuery<T> setExecutionPolicy(ExecutionPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    @Override
    public ShardedQuery<T> setFetchSize(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("The fetch size must be positive: " + rows);
        }
        this.fetchSize = rows;
        return this;
    }

    @Override
    public ShardedQuery<T> setHint(String name, Object value) {
        switch (name) {
            case HINT_TIMEOUT_MILLIS:
                setTimeout(Duration.ofMillis(Long.parseLong(String.valueOf(value))));
                break;
            case HINT_HIBERNATE_TIMEOUT_SECONDS:
                setTimeout(Duration.ofSeconds(Long.parseLong(String.valueOf(value))));
                break;
            case HINT_FETCH_SIZE:
                setFetchSize(Integer.parseInt(String.valueOf(value)));
                break;
            case HINT_POLICY:
                setExecutionPolicy(value instanceof ExecutionPolicy p ? p : ExecutionPolicy.valueOf(
                        String.valueOf(value)));
                break;
            case HINT_READ_ONLY:
                break;
            default:
                hints.put(name, value);
        }
        return this;
    }

    @Override
    public Set<ShardId> targetShards() {
        return new LinkedHashSet<>(targets());
    }

    private List<ShardId> targets() {
        return engine.pruner().targets(statement, bindings);
    }

    @Override
    public FanOutResult<T> execute() {
        return execute(maxResults);
    }

    @SuppressWarnings("unchecked")
    private FanOutResult<T> execute(int max) {
        var ownership = engine.ownership();
        for (int attempt = 1; ; attempt++) {
            var check = ownership == null ? null : ownership.attempt(); // first: the targets come from its map
            List<ShardId> targets = targets();
            try (Execution execution = start(targets, max, true, check)) {
                List<T> rows = new ArrayList<>();
                execution.rows.forEachRemaining(row -> rows.add((T) row));
                String inconsistency = check == null ? null : check.inconsistency(answered(execution));
                if (inconsistency == null) {
                    return new FanOutResult<>(rows, new LinkedHashSet<>(targets), execution.run.failures(),
                            execution.run.meter().peak());
                }
                ownership.beforeRetry(attempt, inconsistency);
            }
        }
    }

    private static List<ShardId> answered(Execution execution) {
        return execution.run.cursors().stream().map(ShardCursor::shard).toList();
    }

    @Override
    public List<T> getResultList() {
        return execute().rows();
    }

    @Override
    public ShardedResultStream<T> openStream() {
        var ownership = engine.ownership();
        for (int attempt = 1; ; attempt++) {
            var check = ownership == null ? null : ownership.attempt();
            Execution execution = start(targets(), maxResults, false, check);
            String inconsistency = check == null ? null : check.inconsistency(answered(execution));
            if (inconsistency == null) {
                return new Streamed<>(execution);
            }
            execution.close();
            ownership.beforeRetry(attempt, inconsistency);
        }
    }

    @Override
    public Stream<T> getResultStream() {
        return openStream().stream();
    }

    @Override
    public T getSingleResult() {
        T result = getSingleResultOrNull();
        if (result == null) {
            throw new NoResultException("The fan-out query returned no row");
        }
        return result;
    }

    @Override
    public T getSingleResultOrNull() {
        List<T> rows = execute(maxResults < 0 ? 2 : Math.min(maxResults, 2)).rows();
        if (rows.size() > 1) {
            throw new NonUniqueResultException("The fan-out query returned more than one row");
        }
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Runs the query on the targets (reading everything, or one fetch per shard when streaming). */
    private Execution start(List<ShardId> targets, int max, boolean readAll,
                            org.atomicshards.hibernate.internal.reshard.FanOutOwnership.Attempt check) {
        RowMeter meter = new RowMeter();
        List<ShardFailure> failures = new ArrayList<>();
        int timeoutSeconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
        Map<String, Object> shardHints = Map.copyOf(hints);
        if (targets.size() == 1) {
            SqmSelectStatement<?> single = statement.copy(SqmCopyContext.noParamCopyContext());
            List<ShardCursor> cursors = engine.scatter().scatter(targets, (shard, register) -> {
                ShardCursor cursor = ShardCursor.open(engine.sessionFactory(), shard, meter, false, !readAll);
                register.accept(cursor);
                if (check != null) {
                    cursor.onConnection(connection -> check.before(shard, connection));
                }
                cursor.execute(single, bindings, firstResult, max, fetchSize, timeoutSeconds, shardHints);
                prefetch(cursor, readAll);
                if (check != null) {
                    cursor.onConnection(connection -> check.after(shard, connection));
                }
                return cursor;
            }, timeout, policy, failures);
            FanOutRun run = new FanOutRun(cursors, failures, policy, fetchSize, 1, meter);
            return new Execution(run, new SingleShardRows(run));
        }
        MergePlan merge = plan();
        FanOutEngine.StringCheck strings = engine.checkStringComparisons(merge, targets, policy, failures);
        List<ShardId> reachable = strings.targets();
        long first = firstResult;
        long limit = max;
        long treeOffset = treeValue(merge.offsetExpression);
        long treeFetch = treeValue(merge.fetchExpression);
        if (treeOffset >= 0 || treeFetch >= 0) {
            if (firstResult > 0 || max >= 0) {
                throw new UnsupportedFanOutQueryException("OFFSET/FETCH in the query together with"
                        + " setFirstResult/setMaxResults", "Use one of the two ways to page.");
            }
            first = Math.max(0, treeOffset);
            limit = treeFetch;
        }
        int shardMax = merge.pushesPagingDown() && limit >= 0 ? (int) Math.min(Integer.MAX_VALUE, first + limit) : -1;
        List<SqmSelectStatement<Object[]>> copies = new ArrayList<>(reachable.size());
        for (int i = 0; i < reachable.size(); i++) {
            copies.add(merge.shardStatement.copy(SqmCopyContext.noParamCopyContext()));
        }
        List<ShardCursor> cursors = engine.scatter().scatter(reachable, (shard, register) -> {
            ShardCursor cursor = ShardCursor.open(engine.sessionFactory(), shard, meter, true, !readAll);
            register.accept(cursor);
            if (check != null) {
                cursor.onConnection(connection -> check.before(shard, connection));
            }
            cursor.execute(copies.get(reachable.indexOf(shard)), bindings, 0, shardMax, fetchSize, timeoutSeconds,
                    shardHints);
            prefetch(cursor, readAll);
            if (check != null) {
                cursor.onConnection(connection -> check.after(shard, connection));
            }
            return cursor;
        }, timeout, policy, failures);
        FanOutRun run = new FanOutRun(cursors, failures, policy, fetchSize, targets.size(), meter);
        try {
            return new Execution(run, engine.merge(merge, strings.strings()).rows(run, bindings, first, limit));
        }
        catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    private void prefetch(ShardCursor cursor, boolean readAll) {
        if (readAll) {
            cursor.fillAll();
        }
        else {
            cursor.fill(fetchSize);
        }
    }

    private MergePlan plan() {
        if (plan == null) {
            plan = engine.plan(statement);
        }
        return plan;
    }

    private long treeValue(SqmExpression<?> expression) {
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
                throw new java.util.NoSuchElementException();
            }
            return ShardCursor.rowOf(run.poll(run.cursors().get(0)));
        }
    }

    /** An executed query: its open shards and the merged rows over them. */
    private record Execution(FanOutRun run, Iterator<Object> rows) implements AutoCloseable {
        @Override
        public void close() {
            run.close();
        }
    }

    /** The open stream handed to the caller. */
    private static final class Streamed<T> implements ShardedResultStream<T> {
        private final Execution execution;

        Streamed(Execution execution) {
            this.execution = execution;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Stream<T> stream() {
            Iterator<T> rows = (Iterator<T>) execution.rows;
            return StreamSupport.stream(Spliterators.spliteratorUnknownSize(rows, Spliterator.ORDERED), false)
                    .onClose(this::close);
        }

        @Override
        public List<ShardFailure> failures() {
            return List.copyOf(execution.run.failures());
        }

        @Override
        public long peakBufferedRows() {
            return execution.run.meter().peak();
        }

        @Override
        public void close() {
            execution.close();
        }
    }
}
