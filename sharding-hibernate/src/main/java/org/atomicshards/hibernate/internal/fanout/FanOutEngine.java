package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.metamodel.EntityType;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.FanOutQueryException;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardQueryFailedException;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.internal.connection.ShardConnectionProvider;
import org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregate;
import org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregates;
import org.atomicshards.hibernate.internal.fanout.aggregate.Values;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.replica.ReplicaHolder;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.reshard.fence.FanOutOwnership;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.Hibernate;
import org.hibernate.SessionFactory;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.SqmStatement;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * The fan-out engine of one session factory: creates fan-out queries and owns what they share (the router, the
 * planner, the executor). Thread-safe.
 */
public final class FanOutEngine implements AutoCloseable {

    /** How long closing waits for running shard queries to end before interrupting them. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    private final SessionFactoryImplementor sessionFactory;
    private final ShardRouter router;
    private final FanOutSettings settings;
    private final ShardPruner pruner;
    private final MergePlanner planner;
    private final ExecutorService ownExecutor;
    private final ShardScatter scatter;
    private final LateShardReaper reaper;
    private final Set<Class<?>> entityTypes = new HashSet<>();
    private final StatementCache<MergePlan> plans = new StatementCache<>(512);
    /** Per parsed HQL statement asked for Tuple rows, its copy typed {@code Tuple} (so that its plan is cached). */
    private final StatementCache<SqmSelectStatement<?>> tupleStatements = new StatementCache<>(512);
    private final ShardCollations collations;
    private final AutoCommitReads autoCommitReads = new AutoCommitReads();
    private final StringComparisonCheck stringCheck;
    private volatile Integer divPrecisionIncrement;
    private final ShardMetrics metrics;

    /**
     * @throws org.atomicshards.hibernate.ShardConfigurationException if the factory's
     *                                                                {@code atomicshards.metrics.meter_registry} is
     *                                                                not a Micrometer {@code MeterRegistry}
     */
    public FanOutEngine(SessionFactory sessionFactory, ShardRouter router, FanOutSettings settings) {
        this(sessionFactory, router, settings, List.of());
    }

    /**
     * As the public constructor, merging {@code addedAggregates} besides the {@linkplain MergeableAggregates#standard
     * standard} ones (for tests of an aggregate kind that is not registered).
     */
    FanOutEngine(SessionFactory sessionFactory, ShardRouter router, FanOutSettings settings,
                 List<MergeableAggregate> addedAggregates) {
        this.sessionFactory = sessionFactory.unwrap(SessionFactoryImplementor.class);
        // the factory's meter registry; Micrometer registers each meter once, so a second view of it is harmless
        this.metrics = ShardMetrics.from(sessionFactory.getProperties());
        this.router = router;
        this.settings = settings;
        for (EntityType<?> entity : sessionFactory.getMetamodel().getEntities()) {
            entityTypes.add(entity.getJavaType());
        }
        QueryRestrictions restrictions = new QueryRestrictions(router, entityTypes);
        this.collations = new ShardCollations(this.sessionFactory);
        this.pruner = new ShardPruner(router, restrictions, () -> router.shards().stream()
                .allMatch(shard -> collations.of(shard).equality() == StringCollation.Equality.EXACT));
        this.stringCheck = new StringComparisonCheck(settings.stringOrder(), settings.stringOrderDeclared());
        this.planner = new MergePlanner(restrictions,
                this.sessionFactory.getJdbcServices().getDialect().getNullOrdering(),
                this.sessionFactory.getSessionFactoryOptions().getDefaultNullPrecedence(), entityTypes,
                new SelectedRowPaths(this.sessionFactory.getMappingMetamodel()),
                MergeableAggregates.standard(this.sessionFactory.getJdbcServices().getDialect(),
                        this::divPrecisionIncrement).with(addedAggregates));
        this.reaper = new LateShardReaper(aborter(this.sessionFactory));
        if (settings.access() == ShardAccess.SEQUENTIAL) {
            this.ownExecutor = null;
            this.scatter = new ShardScatter(null, reaper);
        }
        else if (settings.executor().isPresent()) {
            this.ownExecutor = null;
            this.scatter = new ShardScatter(settings.executor().get(), reaper);
        }
        else {
            this.ownExecutor = newExecutor(settings.parallelism());
            this.scatter = new ShardScatter(ownExecutor, reaper);
        }
    }

    /**
     * How an abandoned shard's connection is aborted: through our shard pools when they provide the connections
     * (evicted from the pool, then its socket closed), otherwise with {@link Connection#abort} alone.
     */
    private static LateShardReaper.ConnectionAborter aborter(SessionFactoryImplementor sessionFactory) {
        MultiTenantConnectionProvider<?> provider = sessionFactory.getServiceRegistry()
                .getService(MultiTenantConnectionProvider.class);
        if (provider != null && provider.isUnwrappableAs(ShardConnectionProvider.class)) {
            return provider.unwrap(ShardConnectionProvider.class)::abort;
        }
        return (shard, connection) -> {
            try {
                connection.abort(Runnable::run);
            }
            catch (SQLException | RuntimeException ignored) {
                // already closed
            }
        };
    }

    private static ExecutorService newExecutor(int threads) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "atomic-shards-fanout-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), factory);
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /**
     * A fan-out query over a criteria query as it is now: later changes to the criteria object do not change this
     * query (as for {@code EntityManager#createQuery}). The snapshot keeps the parameter objects, which bind by
     * identity.
     */
    public <T> ShardedQuery<T> createQuery(CriteriaQuery<T> criteria) {
        return new ShardedQueryImpl<>(this, ((SqmSelectStatement<T>) criteria).copy(
                SqmCopyContext.noParamCopyContext()));
    }

    /**
     * A fan-out query over an HQL/JPQL select statement. Asked for {@link Tuple} rows, it runs a copy of the parsed
     * statement whose result type is {@code Tuple} (the parsed tree's is not: Hibernate applies the type a query
     * asks for when it creates the query), made once per parsed statement.
     */
    @SuppressWarnings("unchecked")
    public <T> ShardedQuery<T> createQuery(String hql, Class<T> resultType) {
        // Hibernate's interpretation cache parses each HQL string once; the cached tree is only ever copied.
        SqmStatement<T> statement = sessionFactory.getQueryEngine().getInterpretationCache()
                .resolveHqlInterpretation(hql, resultType, sessionFactory.getQueryEngine().getHqlTranslator())
                .getSqmStatement();
        if (!(statement instanceof SqmSelectStatement<T> select)) {
            throw new UnsupportedFanOutQueryException("an update or delete statement",
                    "Fan-out runs read queries only; run writes in a unit of work on the key's shard.");
        }
        if (resultType == Tuple.class && select.getResultType() != Tuple.class) {
            return new ShardedQueryImpl<>(this, (SqmSelectStatement<T>) tupleStatements.get(select,
                    parsed -> parsed.createCopy(SqmCopyContext.noParamCopyContext(), Tuple.class)));
        }
        return new ShardedQueryImpl<>(this, select);
    }

    /** The executor threads this engine created (0 when it uses a supplied executor or sequential access). */
    public int ownThreads() {
        return ownExecutor instanceof ThreadPoolExecutor pool ? pool.getPoolSize() : 0;
    }

    /** Whether threads of this engine's own executor are running a shard query now. */
    public int activeThreads() {
        return ownExecutor instanceof ThreadPoolExecutor pool ? pool.getActiveCount() : 0;
    }

    @Override
    public void close() {
        reaper.close();
        if (ownExecutor != null) {
            ownExecutor.shutdown();
            try {
                if (!ownExecutor.awaitTermination(CLOSE_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                    ownExecutor.shutdownNow();
                }
            }
            catch (InterruptedException e) {
                ownExecutor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    AutoCommitReads autoCommitReads() {
        return autoCommitReads;
    }

    /** The factory's replica reads; null when its connections are not ours (nothing to read replicas from). */
    ReplicaReads replicaReads() {
        ReplicaReads current = replicaReads;
        if (current == null) {
            MultiTenantConnectionProvider<?> provider = sessionFactory.getServiceRegistry()
                    .getService(MultiTenantConnectionProvider.class);
            current = provider != null && provider.isUnwrappableAs(ReplicaHolder.class)
                    ? provider.unwrap(ReplicaHolder.class).replicaReads() : null;
            replicaReads = current;
        }
        return current;
    }

    private volatile ReplicaReads replicaReads;

    SessionFactoryImplementor sessionFactory() {
        return sessionFactory;
    }

    ShardRouter router() {
        return router;
    }

    /** The resharding ownership check of fan-outs; null outside an Atomic Shards factory. */
    FanOutOwnership ownership() {
        FanOutOwnership current = ownership;
        if (current == null) {
            current = FanOutOwnership.of(sessionFactory);
            ownership = current;
        }
        return current;
    }

    private volatile FanOutOwnership ownership;

    ShardMetrics metrics() {
        return metrics;
    }

    public FanOutSettings settings() {
        return settings;
    }

    ShardPruner pruner() {
        return pruner;
    }

    MergePlanner planner() {
        return planner;
    }

    ShardScatter scatter() {
        return scatter;
    }

    /**
     * The merge plan of a statement (plans hold its parameter nodes). An HQL statement comes from Hibernate's
     * interpretation cache, which never changes it, so its plan is cached by identity; a criteria statement is a
     * snapshot private to one query, planned for that query alone.
     */
    MergePlan plan(SqmSelectStatement<?> statement) {
        FanOutOwnership check = ownership();
        boolean readsEpoch = check != null && check.epochInStatements();
        return plans.get(statement, s -> planner.plan(s, readsEpoch));
    }

    /** The targets a query runs on, and how its merge compares strings. */
    record StringCheck(List<ShardId> targets, StringRules strings) {
    }

    /**
     * Chooses how the merge compares strings so that it compares them as every target shard's database does (its
     * collation read once per shard, on the first query that needs it), and refuses a merge that no single rule
     * serves. A shard whose collation cannot be read counts as failed: under COMPLETE the query fails; under
     * PARTIAL it is recorded in {@code failures} and left out.
     *
     * @return the targets to query and the string rules of the merge
     */
    StringCheck checkStringComparisons(MergePlan plan, List<ShardId> targets,
                                       ExecutionPolicy policy, List<ShardFailure> failures) {
        if (!stringCheck.needsCollations(plan)) {
            return new StringCheck(targets, stringCheck.unchecked());
        }
        Map<ShardId, StringCollation> known = new HashMap<>();
        List<ShardId> readable = new ArrayList<>(targets.size());
        for (ShardId shard : targets) {
            try {
                known.put(shard, collations.of(shard));
                readable.add(shard);
            }
            catch (FanOutQueryException e) {
                failures.add(new ShardFailure(shard, e));
                if (policy == ExecutionPolicy.COMPLETE) {
                    throw new ShardQueryFailedException(failures, targets.size());
                }
            }
        }
        return new StringCheck(readable, stringCheck.check(plan, readable, known::get));
    }

    RowMerge merge(MergePlan plan, StringRules strings) {
        return new RowMerge(plan, new Values(strings.order()), identity(strings));
    }

    /**
     * MariaDB's and MySQL's {@code div_precision_increment} (the extra scale of AVG over decimals), read from the
     * first shard that answers, once for the life of the engine: every shard must use the same value.
     */
    private int divPrecisionIncrement() {
        Integer known = divPrecisionIncrement;
        if (known != null) {
            return known;
        }
        RuntimeException failure = null;
        for (ShardId shard : router.shards()) {
            try (var session = sessionFactory.withStatelessOptions().tenantIdentifier(shard).readOnly(true)
                    .openStatelessSession()) {
                int read = session.doReturningWork(connection -> {
                    try (var statement = connection.prepareStatement("select @@div_precision_increment");
                         var rows = statement.executeQuery()) {
                        rows.next();
                        return rows.getInt(1);
                    }
                });
                divPrecisionIncrement = read;
                return read;
            }
            catch (RuntimeException e) {
                failure = e;
            }
        }
        throw new FanOutQueryException("Cannot read div_precision_increment from any shard (needed to round a"
                + " merged AVG over decimals as the database does)", failure);
    }

    /** A value as a merge key: an entity as its type and id, a string as the collation's equality sees it. */
    private Function<Object, Object> identity(StringRules strings) {
        return value -> {
            if (value == null) {
                return null;
            }
            if (value instanceof String) {
                return strings.equalityKey(value);
            }
            Class<?> type = entityTypes.contains(value.getClass()) ? value.getClass() : null;
            if (type == null && !(value instanceof Number) && !(value instanceof CharSequence)) {
                Class<?> unproxied = Hibernate.getClass(value);
                type = entityTypes.contains(unproxied) ? unproxied : null;
            }
            if (type == null) {
                return value;
            }
            return new EntityIdentity(type, sessionFactory.getPersistenceUnitUtil().getIdentifier(value));
        };
    }

    /** An entity as a merge key: its class and identifier (instances from different sessions are equal). */
    private record EntityIdentity(Class<?> type, Object id) {
    }
}
