package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
import org.atomicshards.hibernate.internal.reshard.fence.FanOutOwnership;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.ShardedResultStream;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * A fan-out query: prunes the target shards with the bound parameters, runs the query unchanged on a single
 * target, or runs the planned shard statement on every target and merges. Also the JPA {@code TypedQuery} the
 * unbound entity manager's {@code createQuery} returns (the JPA-only methods are {@link JpaQuerySupport}'s).
 */
final class ShardedQueryImpl<T> extends JpaQuerySupport<T> {

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
    private boolean fromReplicas;
    private MergePlan plan;
    /** Whether the query runs as written on a single shard; decided at its first run. */
    private Boolean runsAsWritten;

    ShardedQueryImpl(FanOutEngine engine, SqmSelectStatement<T> statement) {
        this.engine = engine;
        this.statement = statement;
        this.timeout = engine.settings().timeout();
        this.policy = engine.settings().policy();
        this.fetchSize = engine.settings().fetchSize();
        this.fromReplicas = engine.settings().replicas();
    }

    @Override
    SqmSelectStatement<T> statement() {
        return statement;
    }

    @Override
    ParameterBindings bindings() {
        return bindings;
    }

    @Override
    Duration timeout() {
        return timeout;
    }

    @Override
    int firstResult() {
        return firstResult;
    }

    @Override
    int maxResults() {
        return maxResults;
    }

    FanOutEngine engine() {
        return engine;
    }

    ExecutionPolicy policy() {
        return policy;
    }

    int fetchSize() {
        return fetchSize;
    }

    /** The hints passed to each shard's query (those the fan-out does not interpret itself). */
    Map<String, Object> shardHints() {
        return Map.copyOf(hints);
    }

    @Override
    Map<String, Object> hints() {
        Map<String, Object> all = new LinkedHashMap<>(hints);
        all.put(HINT_TIMEOUT_MILLIS, timeout.toMillis());
        all.put(HINT_POLICY, policy);
        all.put(HINT_FETCH_SIZE, fetchSize);
        return all;
    }

    @Override
    public FanOutQuery<T> setFirstResult(int firstResult) {
        if (firstResult < 0) {
            throw new IllegalArgumentException("firstResult must not be negative: " + firstResult);
        }
        this.firstResult = firstResult;
        return this;
    }

    @Override
    public FanOutQuery<T> setMaxResults(int maxResults) {
        if (maxResults < 0) {
            throw new IllegalArgumentException("maxResults must not be negative: " + maxResults);
        }
        this.maxResults = maxResults;
        return this;
    }

    @Override
    public FanOutQuery<T> setParameter(String name, Object value) {
        bindings.bind(name, value);
        return this;
    }

    @Override
    public FanOutQuery<T> setParameter(int position, Object value) {
        bindings.bind(position, value);
        return this;
    }

    @Override
    public <P> FanOutQuery<T> setParameter(Parameter<P> parameter, P value) {
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
    public ShardedQuery<T> setReadFromReplicas(boolean fromReplicas) {
        this.fromReplicas = fromReplicas;
        return this;
    }

    /**
     * Whether run {@code attempt} reads from replicas: only the first. Replicas replay their primaries' moves at
     * different moments, so their answers can disagree for as long as one of them lags inside a move; a run that
     * disagreed runs again on the primaries, as any fan-out does.
     */
    private boolean fromReplicasIn(int attempt) {
        return fromReplicas && attempt == 1;
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
    public FanOutQuery<T> setHint(String name, Object value) {
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
        Merged<T> merged = merge(maxResults);
        return new FanOutResult<>(merged.rows(), Set.copyOf(merged.targets()), merged.failures(),
                merged.peakBufferedRows());
    }

    /** One consistent run's merged rows and what {@link FanOutResult} reports of it. */
    private record Merged<T>(List<T> rows, List<ShardId> targets, List<ShardFailure> failures, long peakBufferedRows) {
    }

    /** Runs the query until the shards' answers are consistent (moves may make it run again), and merges them. */
    @SuppressWarnings("unchecked")
    private Merged<T> merge(int max) {
        FanOutOwnership ownership = engine.ownership();
        for (int attempt = 1; ; attempt++) {
            FanOutOwnership.Attempt check = ownership == null ? null : ownership.attempt(); // first: targets from its map
            List<ShardId> targets = targets();
            try (QueryExecution execution = QueryExecution.start(this, targets, max, true, check,
                    fromReplicasIn(attempt))) {
                List<T> rows = new ArrayList<>();
                execution.rows.forEachRemaining(row -> rows.add((T) row));
                String inconsistency = check == null ? null : check.inconsistency(execution.answered());
                if (inconsistency == null) {
                    return new Merged<>(rows, targets, execution.run.failures(), execution.run.meter().peak());
                }
                ownership.beforeRetry(attempt, inconsistency);
            }
        }
    }

    /** The rows alone, without {@link FanOutResult}'s set of shards (a hash set per query). */
    private List<T> rows(int max) {
        return Collections.unmodifiableList(merge(max).rows());
    }

    @Override
    public List<T> getResultList() {
        return rows(maxResults);
    }

    @Override
    public ShardedResultStream<T> openStream() {
        FanOutOwnership ownership = engine.ownership();
        for (int attempt = 1; ; attempt++) {
            FanOutOwnership.Attempt check = ownership == null ? null : ownership.attempt();
            QueryExecution execution = QueryExecution.start(this, targets(), maxResults, false, check,
                    fromReplicasIn(attempt));
            String inconsistency = check == null ? null : check.inconsistency(execution.answered());
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
        List<T> rows = rows(maxResults < 0 ? 2 : Math.min(maxResults, 2));
        if (rows.size() > 1) {
            throw new NonUniqueResultException("The fan-out query returned more than one row");
        }
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The merge plan, planned on the first run across several shards. */
    MergePlan plan() {
        if (plan == null) {
            plan = engine.plan(statement);
        }
        return plan;
    }

    /**
     * Whether the query runs as written when it reaches one shard. Not where one database answers what the fan-out
     * documents otherwise and its merge plan rewrites: {@code bit_and} over no value on MariaDB and MySQL, every bit of
     * a BIGINT UNSIGNED, which Hibernate cannot read into the argument's type ({@code Bitwise}); such a query takes the
     * merge path with its one shard, so that pruning it to one shard answers as over several (null). A query the merge
     * cannot plan runs as written.
     */
    boolean runsAsWrittenOnOneShard() {
        if (runsAsWritten == null) {
            runsAsWritten = !(engine.sessionFactory().getJdbcServices().getDialect() instanceof MySQLDialect)
                    || !AggregateFinder.callsAggregate(statement, "bit_and") || !plannable();
        }
        return runsAsWritten;
    }

    private boolean plannable() {
        try {
            plan();
            return true;
        } catch (UnsupportedFanOutQueryException notMergeable) {
            return false;
        }
    }

    /** The open stream handed to the caller. */
    private static final class Streamed<T> implements ShardedResultStream<T> {
        private final QueryExecution execution;

        Streamed(QueryExecution execution) {
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
