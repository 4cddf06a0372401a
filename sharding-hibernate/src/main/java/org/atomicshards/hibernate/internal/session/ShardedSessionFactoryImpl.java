package org.atomicshards.hibernate.internal.session;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.HotSpotReport;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardIndexes;
import org.atomicshards.hibernate.ShardSchema;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.guard.QueryReadGuard;
import org.atomicshards.hibernate.internal.guard.ReadGuard;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.reshard.fence.UnitOfWorkRetry;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.Session;
import org.hibernate.Transaction;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The implementation of {@link ShardedSessionFactory}: a facade over {@link UnitsOfWork}, {@link WriteRouting},
 * {@link IdRouting}, {@link ReferenceDataReplication}, {@link ShardProbe} and {@link FanOutWiring}. Routing decisions
 * read precomputed, in-memory structures only; the catalog is touched only to place a new unit of a directory policy
 * or to reserve an id block. The facade is the owner of its units of work on the thread's shard binding.
 */
public final class ShardedSessionFactoryImpl implements ShardedSessionFactory {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardRouterImpl router;
    private final CachedShardDirectory directory;
    private final Topology topology;
    private final Supplier<ShardAdmin> admin;
    private final PerShardSchema schema;
    private final UnitLookup units;
    private final ShardSessions sessions;
    private final UnitsOfWork unitsOfWork;
    private final UnitOfWorkRetry unitRetry;
    private final ReferenceDataReplication replication;
    private final WriteRouting writes;
    private final ShardProbe probe;
    private final IdRouting ids;
    private final FanOutWiring fanOut;
    private final Traffic traffic;
    private final WriteFence fence;
    private final SessionReadFence sessionReads;
    private final ReplicaReads replicaReads;
    private final ShardIndexes indexes;

    public ShardedSessionFactoryImpl(FactoryParts parts) {
        this.sessionFactory = parts.sessionFactory();
        this.router = parts.router();
        this.directory = parts.directory();
        this.topology = parts.config().topology();
        this.admin = parts.admin();
        this.schema = parts.schema();
        this.units = new UnitLookup(router);
        this.sessions = new ShardSessions(sessionFactory, parts.config().topology(), parts.replicas());
        this.replicaReads = parts.replicas();
        this.unitRetry = parts.unitRetry();
        this.unitsOfWork = new UnitsOfWork(this, sessions, parts.deadlines(),
                new UnitFailures(parts.pools(), parts.config().timeouts()), parts.fence(), parts.metrics());
        this.traffic = parts.traffic();
        this.replication = new ReferenceDataReplication(this, sessions, topology::shardIds, parts.topologyLock());
        this.writes = new WriteRouting(router, units, sessionFactory, parts.config().topology(),
                parts.keyGenerators(), parts.declaredKeyGenerations(), unitsOfWork, replication, unitRetry, traffic);
        this.probe = new ShardProbe(this, unitsOfWork, directory, topology.shardIds().size(), parts.name());
        this.ids = new IdRouting(router, units, directory, topology::shardIds, unitsOfWork, probe, parts.idRoutes(),
                parts.fence().ownership(), unitRetry, parts.metrics(), traffic);
        this.fanOut = new FanOutWiring(sessionFactory, router);
        this.indexes = parts.indexes();
        this.fence = parts.fence();
        this.sessionReads = new SessionReadFence(router, ids, directory, fence);
        ids.confirmingWith(sessionReads);
    }

    /** What confirms the reads by id in every session of the factory ({@link ReadGuard}). */
    public ReadGuard.Confirmation sessionReads() {
        return sessionReads;
    }

    /** What confirms every select in a session opened for a unit or on a shard ({@link QueryReadGuard}). */
    public QueryReadGuard.Confirmation sessionQueries() {
        return sessionReads;
    }

    @Override
    public SessionFactory sessionFactory() {
        return sessionFactory;
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        if (type == ShardRouter.class) {
            return type.cast(router);
        }
        if (type == ShardDirectory.class) {
            return type.cast(directory);
        }
        if (type == SessionFactory.class || type == EntityManagerFactory.class) {
            return type.cast(sessionFactory);
        }
        return sessionFactory.unwrap(type);
    }

    @Override
    public ShardRouter router() {
        return router;
    }

    @Override
    public ShardDirectory directory() {
        return directory;
    }

    @Override
    public List<ShardId> shards() {
        return topology.shardIds();
    }

    @Override
    public ShardAdmin admin() {
        return admin.get();
    }

    @Override
    public Optional<ShardId> shardFor(Class<?> unit, Object key) {
        return Optional.ofNullable(units.unitOf(unit).shardOf(key));
    }

    @Override
    public void inUnit(Class<?> unit, Object key, Consumer<Session> work) {
        callInUnit(unit, key, session -> {
            work.accept(session);
            return null;
        });
    }

    @Override
    public <R> R callInUnit(Class<?> unit, Object key, Function<Session, R> work) {
        UnitRoutingImpl routing = units.unitOf(unit);
        return unitRetry.call(() -> {
            RoutedKey routed = writes.routeForWork(routing, key); // afresh on every attempt: the map may have moved on
            return unitsOfWork.run(routed.shard(), routing.simpleName(),
                    () -> "run unit " + unit.getSimpleName() + " key " + key, routed.mapVersion(),
                    () -> FenceTargets.of(routing, routed), work);
        });
    }

    @Override
    public <R> R readInUnit(Class<?> unit, Object key, Function<Session, R> work) {
        UnitRoutingImpl routing = units.unitOf(unit);
        return unitRetry.call(() -> {
            RoutedKey routed = writes.routeForWork(routing, key); // afresh on every attempt: the map may have moved on
            try (Session session = sessions.openReadOnly(routed.shard())) {
                sessionReads.openedFor((SharedSessionContractImplementor) session, routed.shard(),
                        routed.mapVersion(), FenceTargets.of(routing, routed));
                Transaction transaction = session.beginTransaction();
                try {
                    return work.apply(session);
                } finally {
                    if (transaction.isActive()) {
                        transaction.rollback();
                    }
                }
            }
        });
    }

    @Override
    public boolean readOnlyWorkOnReplicas() {
        return replicaReads.readOnlyWork();
    }

    @Override
    public void inUnit(Object key, Consumer<Session> work) {
        inUnit(units.onlyUnit().root(), key, work);
    }

    @Override
    public <R> R callInUnit(Object key, Function<Session, R> work) {
        return callInUnit(units.onlyUnit().root(), key, work);
    }

    @Override
    public void persist(Object entity) {
        writes.persist(entity);
    }

    @Override
    public Optional<ShardId> shardForWrite(Object entity) {
        return writes.shardForWrite(entity);
    }

    @Override
    public <T> T find(Class<T> type, Object id) {
        return ids.find(type, id);
    }

    @Override
    public Set<ShardId> shardsForId(Class<?> type, Object id) {
        return ids.shardsForId(type, id);
    }

    @Override
    public <R> List<R> askShards(Class<?> unit, Function<Session, R> probe) {
        UnitRoutingImpl routing = units.unitOf(unit);
        return this.probe.ask(routing, probe, routing.policy().combine());
    }

    @Override
    public ShardId place(Class<?> unit, Object key, ShardId shard) {
        return writes.place(unit, key, shard);
    }

    @Override
    public Session openSession(Class<?> unit, Object key) {
        UnitRoutingImpl routing = units.unitOf(unit);
        RoutedKey routed = unitRetry.call(() -> {
            RoutedKey attempt = writes.routeForWork(routing, key); // afresh on every attempt: the map may have moved on
            fence.confirmClaim(attempt.shard(), attempt.mapVersion(), FenceTargets.of(routing, attempt));
            return attempt;
        });
        Session session = sessions.open(routed.shard());
        sessionReads.openedFor((SharedSessionContractImplementor) session, routed.shard(), routed.mapVersion(),
                FenceTargets.of(routing, routed));
        return session;
    }

    @Override
    public Optional<ShardId> shardHolding(Class<?> unit, Object key) {
        UnitRoutingImpl routing = units.unitOf(unit);
        Object checked = routing.checkKey(key);
        return Optional.ofNullable(unitRetry.call(() -> {
            int mapVersion = routing.placement().mapVersion(); // before routing, as the ring's fence compares it
            ShardId shard = routing.ownerOf(checked);
            if (shard != null) {
                fence.confirmClaim(shard, mapVersion, FenceTargets.of(routing,
                        new RoutedKey(checked, routing.placement().virtualShardOf(checked), shard, mapVersion)));
            }
            return shard;
        }));
    }

    @Override
    public Session openSession(ShardId shard) {
        return confirmedOnShard(shard, sessions.open(shard));
    }

    @Override
    public Session openReadOnlySession(ShardId shard) {
        return confirmedOnShard(shard, sessions.openReadOnly(shard));
    }

    /** {@code session}, just opened on {@code shard}, with its selects confirmed for the map it was opened with. */
    private Session confirmedOnShard(ShardId shard, Session session) {
        int openedWith = directory.version();
        int scopeResolvedWith = ShardBinding.mapVersion(this);
        if (scopeResolvedWith != ShardBinding.UNKNOWN_MAP_VERSION && shard.equals(ShardBinding.shard(this))) {
            openedWith = Math.min(openedWith, scopeResolvedWith); // a scope resolved from a unit's key, maybe before
        }
        sessionReads.openedOn((SharedSessionContractImplementor) session, openedWith);
        return session;
    }

    @Override
    public void replicate(Consumer<Session> work) {
        replication.replicate(work);
    }

    @Override
    public HotSpotReport hotSpots() {
        return traffic.report(directory, topology.shardIds());
    }

    @Override
    public void resetHotSpots() {
        traffic.reset();
    }

    @Override
    public ShardSchema schema() {
        return schema;
    }

    @Override
    public ShardIndexes indexes() {
        return indexes;
    }

    @Override
    public FanOutQueries fanOut() {
        return fanOut.fanOut();
    }

    /** Closes Hibernate's factory, which stops this facade's executors on the way ({@link #closing()}). */
    @Override
    public void close() {
        sessionFactory.close();
    }

    /**
     * Stops the fan-out and probe executors, if they were started; idempotent. Called while Hibernate's factory
     * closes, however it is closed (this facade, {@code EntityManagerFactory.close()}, a Spring context shutting
     * down), so no {@code atomic-shards-fanout-N} or access thread outlives the factory.
     */
    public void closing() {
        try {
            fanOut.close();
        } finally {
            probe.close();
        }
    }
}
