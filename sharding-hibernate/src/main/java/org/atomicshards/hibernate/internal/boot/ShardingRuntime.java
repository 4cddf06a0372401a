package org.atomicshards.hibernate.internal.boot;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.reshard.AutoResume;
import org.atomicshards.hibernate.internal.reshard.fence.FenceHolder;
import org.atomicshards.hibernate.internal.reshard.lease.ConnectionLeases;
import org.atomicshards.hibernate.internal.reshard.lease.LeaseRevocation;
import org.atomicshards.hibernate.internal.reshard.lease.LeaseSettings;
import org.atomicshards.hibernate.internal.replica.ReadYourWrites;
import org.atomicshards.hibernate.internal.replica.ReplicaHolder;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.ShardAdminImpl;
import org.atomicshards.hibernate.internal.reshard.move.PromotedBatches;
import org.atomicshards.hibernate.internal.reshard.journal.StoppedOperations;
import org.atomicshards.hibernate.internal.reshard.fence.UnitOfWorkRetry;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.connection.ShardConnectionProvider;
import org.atomicshards.hibernate.internal.connection.BoundShardTenantResolver;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.guard.BulkWriteGuard;
import org.atomicshards.hibernate.internal.guard.QueryReadGuard;
import org.atomicshards.hibernate.internal.guard.ReadGuard;
import org.atomicshards.hibernate.internal.guard.ShardGuard;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.id.IdGenerationContext;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.index.ShardIndexRuntime;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.atomicshards.hibernate.internal.schema.ShardMigrations;
import org.atomicshards.hibernate.internal.schema.ShardingGaps;
import org.atomicshards.hibernate.internal.schema.ShardingPlanner;
import org.atomicshards.hibernate.internal.id.IdFloors;
import org.atomicshards.hibernate.internal.session.FactoryParts;
import org.atomicshards.hibernate.internal.session.ShardedSessionFactoryImpl;
import org.atomicshards.hibernate.internal.topology.TopologyAdmin;
import org.atomicshards.hibernate.internal.topology.TopologyRefresher;
import org.atomicshards.hibernate.internal.connection.ShardReachabilityCheck;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.session.UnitDeadlines;
import org.hibernate.boot.Metadata;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.spi.EventType;

/**
 * Everything one sharded session factory owns: the validated configuration, the shard pools and Hibernate's
 * connection provider and tenant resolver over them (created before the factory), then, once Hibernate has built the
 * factory, the directory, the unit model, the key generators, the guards' state and the public facade.
 */
public final class ShardingRuntime implements IdGenerationContext, FenceHolder, ReplicaHolder {

    private static final AtomicInteger FACTORY_COUNTER = new AtomicInteger();

    private final ShardingConfig config;
    private final String name;
    private final ShardPools pools;
    private final ShardConnectionProvider connectionProvider;
    private final BoundShardTenantResolver tenantResolver;
    private final ShardGuard guard = new ShardGuard();
    private final BulkWriteGuard bulkWriteGuard = new BulkWriteGuard();
    private final QueryReadGuard queryReadGuard = new QueryReadGuard();
    private final ReadGuard beforeRead = new ReadGuard.Before();
    private final ReadGuard afterRead = new ReadGuard.After();
    private final ShardIndexRuntime indexes = new ShardIndexRuntime();
    private final ShardMetrics metrics;
    private final Traffic traffic;
    private final ReadWriteLock topologyLock = new ReentrantReadWriteLock();
    private volatile SessionFactoryImplementor sessionFactory;
    private volatile TopologyRefresher refresher;
    private volatile AutoResume autoResume;
    private final UnitDeadlines deadlines;
    private volatile Catalog catalog;
    private volatile CachedShardDirectory directory;
    private volatile ShardRouterImpl router;
    private volatile KeyGenerators keyGenerators;
    private volatile PerShardSchema schema;
    private volatile ShardedSessionFactoryImpl facade;
    private volatile OwnershipFence fence;
    private volatile ReplicaReads replicaReads;
    private volatile ShardAdminImpl admin;
    /** Asked by the failures of units of work and fan-outs; the admin is read when asked (null until booted). */
    private final StoppedOperations stoppedOperations = new StoppedOperations(() -> {
        ShardAdminImpl booted = admin;
        return booted == null ? List.of() : booted.stoppedOperations();
    });
    private final PromotedBatches promotedBatches = new PromotedBatches(() -> {
        ShardAdminImpl booted = admin;
        return booted != null && booted.releasePromotedBatches();
    });

    public ShardingRuntime(ShardingConfig config) {
        this(config, null);
    }

    /** @param metricsTrackerFactory given to every shard pool; null for none */
    public ShardingRuntime(ShardingConfig config, MetricsTrackerFactory metricsTrackerFactory) {
        this(config, metricsTrackerFactory, ShardMetrics.NONE, Traffic.OFF);
    }

    /**
     * @param metricsTrackerFactory given to every shard pool; null for none
     * @param metrics               the factory's meters (units of work, guards, id probes, resharding)
     * @param traffic               the per-virtual-shard traffic counts of the hot-spot report
     */
    public ShardingRuntime(ShardingConfig config, MetricsTrackerFactory metricsTrackerFactory, ShardMetrics metrics,
                           Traffic traffic) {
        this.metrics = metrics;
        this.traffic = traffic;
        this.config = config;
        this.name = "f" + FACTORY_COUNTER.incrementAndGet();
        this.pools = new ShardPools(config.topology(), name, config.timeouts(), config.idleConnections(),
                metricsTrackerFactory);
        this.connectionProvider = new ShardConnectionProvider(pools, config.topology().shardIds(), this);
        this.tenantResolver = new BoundShardTenantResolver(config.defaultShard());
        this.deadlines = new UnitDeadlines(config.timeouts().transactionTimeoutMillis(), pools::abort,
                "atomicshards-" + name + "-deadlines");
    }

    @Override
    public ReplicaReads replicaReads() {
        return replicaReads;
    }

    public ShardConnectionProvider connectionProvider() {
        return connectionProvider;
    }

    public BoundShardTenantResolver tenantResolver() {
        return tenantResolver;
    }

    /** The executor of bulk and native mutations, which fences them once the runtime has started. */
    BulkWriteGuard bulkWriteGuard() {
        return bulkWriteGuard;
    }

    QueryReadGuard queryReadGuard() {
        return queryReadGuard;
    }

    public ShardingConfig config() {
        return config;
    }

    public ShardPools pools() {
        return pools;
    }

    /**
     * Registers the guards as PRE_INSERT / PRE_UPDATE / PRE_DELETE / PRE_UPSERT / FLUSH_ENTITY listeners, the index
     * writes after them, and the read guards around Hibernate's LOAD listener.
     */
    void registerGuards(SessionFactoryImplementor sessionFactory) {
        var registry = sessionFactory.getEventListenerRegistry();
        registry.appendListeners(EventType.PRE_INSERT, guard);
        registry.appendListeners(EventType.PRE_UPDATE, guard);
        registry.appendListeners(EventType.PRE_DELETE, guard);
        registry.appendListeners(EventType.PRE_UPSERT, guard);
        registry.appendListeners(EventType.PRE_INSERT, indexes.writes());
        registry.appendListeners(EventType.PRE_UPDATE, indexes.writes());
        registry.appendListeners(EventType.PRE_DELETE, indexes.writes());
        registry.appendListeners(EventType.PRE_UPSERT, indexes.writes());
        registry.appendListeners(EventType.FLUSH_ENTITY, guard);
        registry.appendListeners(EventType.PRE_COLLECTION_RECREATE, guard);
        registry.appendListeners(EventType.PRE_COLLECTION_UPDATE, guard);
        registry.appendListeners(EventType.PRE_COLLECTION_REMOVE, guard);
        registry.prependListeners(EventType.LOAD, beforeRead);
        registry.appendListeners(EventType.LOAD, afterRead);
    }

    /** Has {@code readYourWrites} told of every entity and collection write. */
    private static void registerWriteListeners(SessionFactoryImplementor sessionFactory, ReadYourWrites readYourWrites) {
        var registry = sessionFactory.getEventListenerRegistry();
        registry.appendListeners(EventType.PRE_INSERT, readYourWrites);
        registry.appendListeners(EventType.PRE_UPDATE, readYourWrites);
        registry.appendListeners(EventType.PRE_DELETE, readYourWrites);
        registry.appendListeners(EventType.PRE_UPSERT, readYourWrites);
        registry.appendListeners(EventType.PRE_COLLECTION_RECREATE, readYourWrites);
        registry.appendListeners(EventType.PRE_COLLECTION_UPDATE, readYourWrites);
        registry.appendListeners(EventType.PRE_COLLECTION_REMOVE, readYourWrites);
    }

    /** Completes the runtime once Hibernate has built the session factory. */
    void start(SessionFactoryImplementor sessionFactory, Metadata metadata) {
        this.sessionFactory = sessionFactory;
        catalog = new Catalog(config.catalogUrl(), config.catalogUser(), config.catalogPassword(),
                "atomicshards-" + name + "-catalog", config.catalogOptions());
        try {
            directory = CachedShardDirectory.open(catalog, config.topology());
            if (config.bootConnectionCheck() && !directory.shardsTakenOverAtBoot().isEmpty()) {
                // the shards added at run time were not in the configuration checked before Hibernate booted
                ShardReachabilityCheck.run(takenOver(directory), config.connectionTimeoutMillis());
            }
            router = new UnitModelBuilder(sessionFactory, config, directory).build();
            keyGenerators = new KeyGenerators(directory, config);
            fence = new OwnershipFence(pools, directory, catalog, router.units().stream()
                    .filter(unit -> unit.placement().onRing()).map(UnitRoutingImpl::unitName).toList());
            indexes.start(sessionFactory, router, directory, pools, fence);
            router.indexedShards(indexes::shardsFor, indexes.names());
            LeaseSettings leaseSettings = LeaseSettings.read(sessionFactory.getProperties(),
                    config.catalogOptions().refreshIntervalMillis());
            ConnectionLeases leases = new ConnectionLeases(fence, pools, directory, leaseSettings.enabled());
            WriteFence writeFence = new WriteFence(fence, leases, directory);
            connectionProvider.prepareShardsWith(fence::ready);
            replicaReads = new ReplicaReads(config.replicas(), pools, directory::version, fence::ready,
                    config.topology()::isActive, metrics);
            if (replicaReads.readYourWrites() != null) {
                registerWriteListeners(sessionFactory, replicaReads.readYourWrites());
                bulkWriteGuard.observeWith(replicaReads.readYourWrites()::wrote);
            }
            connectionProvider.checkConnectionsWith(leases::check);
            guard.activate(router, metrics, writeFence);
            bulkWriteGuard.activate(writeFence);
            ShardMigrations migrations = ShardMigrations.read(sessionFactory.getProperties(),
                    config.topology()::shardIds, config.topology()::shard);
            ShardingGaps gaps = new ShardingGaps(router, IdFloors.of(sessionFactory, router), pools,
                    config.topology()::shardIds);
            schema = new PerShardSchema(metadata, sessionFactory, config.topology()::shardIds, pools,
                    config.catalogOptions().lockTimeoutMillis(), migrations, gaps,
                    new ShardingPlanner(router, gaps, pools, config.topology()::shardIds), indexes);
            IdModelBuilder ids = new IdModelBuilder(sessionFactory, router);
            UnitOfWorkRetry unitRetry = new UnitOfWorkRetry(directory, writePauseMillis(sessionFactory),
                    stoppedOperations);
            facade = new ShardedSessionFactoryImpl(new FactoryParts(name, sessionFactory, config, pools, directory,
                    router, keyGenerators, schema, ids.idRoutes(), ids.declaredKeyGenerations(), () -> admin,
                    topologyLock, deadlines, writeFence, unitRetry, metrics, traffic, indexes, replicaReads));
            beforeRead.activate(facade.sessionReads());
            afterRead.activate(facade.sessionReads());
            queryReadGuard.activate(facade.sessionQueries());
            if (migrations.atBoot()) {
                schema.migrate(); // the application's migrations first: the schema action then finds their tables
            }
            schema.runAtBoot(config.schemaAction());
            TopologyAdmin topologyAdmin = new TopologyAdmin(config, directory, sessionFactory, router, pools, schema,
                    topologyLock, fence, keyGenerators);
            admin = new ShardAdminImpl(config.topology(), pools, directory, router, fence, catalog, topologyAdmin,
                    metrics, new LeaseRevocation(pools, fence, leaseSettings.grace(),
                    leaseSettings.endSessions()), replicaReads);
            ShardAdminImpl shardAdmin = admin;
            AutoResume.Mode resumeMode = autoResume(sessionFactory, config.catalogOptions().refreshIntervalMillis());
            autoResume = resumeMode == AutoResume.Mode.OFF ? null : new AutoResume(shardAdmin, name, resumeMode);
            AutoResume resumer = autoResume;
            refresher = new TopologyRefresher(directory, config.topology(), pools,
                    config.timeouts().transactionTimeoutMillis() + 1_000, () -> {
                        leases.maintain();
                        if (metrics.enabled()) {
                            shardAdmin.meterUnfinishedOperations();
                        }
                        if (resumer != null) {
                            resumer.onRefresh();
                        }
                    });
            refresher.start(config.catalogOptions().refreshIntervalMillis(), name);
        } catch (RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    /** The shards taken over from the catalog at boot, as a topology of their own for the reachability check. */
    private static Topology takenOver(CachedShardDirectory directory) {
        return Topology.of(directory.shardsTakenOverAtBoot());
    }

    /**
     * Releases the facade's executors (fan-out and access), runs the create-drop drop on every shard and closes the
     * catalog. Called once, while Hibernate's factory closes.
     */
    void closing() {
        if (refresher != null) {
            refresher.close();
        }
        if (autoResume != null) {
            autoResume.close();
        }
        try {
            if (facade != null) {
                facade.closing();
            }
            if (schema != null) {
                schema.runAtClose(config.schemaAction());
            }
        } finally {
            deadlines.close();
            if (catalog != null) {
                catalog.close();
            }
        }
    }

    /**
     * The setting {@link ShardingSettings#RESHARDING_AUTO_RESUME}: {@code true}, {@code after_switch} (the default
     * when the instance refreshes) or {@code false} (the default when it does not).
     */
    private static AutoResume.Mode autoResume(SessionFactoryImplementor sessionFactory, long refreshIntervalMillis) {
        Object value = sessionFactory.getProperties().get(ShardingSettings.RESHARDING_AUTO_RESUME);
        if (value == null) {
            return refreshIntervalMillis > 0 ? AutoResume.Mode.AFTER_SWITCH : AutoResume.Mode.OFF;
        }
        String text = value.toString().trim().toLowerCase(Locale.ROOT);
        AutoResume.Mode mode = switch (text) {
            case "true" -> AutoResume.Mode.ALL;
            case "after_switch" -> AutoResume.Mode.AFTER_SWITCH;
            case "false" -> AutoResume.Mode.OFF;
            default -> throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_AUTO_RESUME
                    + "' has value '" + value + "', which is none of true, after_switch and false. Fix: "
                    + ShardingSettings.RESHARDING_AUTO_RESUME + "=true to resume every stopped resharding operation "
                    + "automatically, after_switch (the default) for those stopped past their switch, or false");
        };
        if (mode != AutoResume.Mode.OFF && refreshIntervalMillis <= 0) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_AUTO_RESUME + "' is "
                    + text + " but '" + ShardingSettings.CATALOG_REFRESH_INTERVAL + "' is 0, so no refresh would ever "
                    + "resume anything. Fix: set " + ShardingSettings.CATALOG_REFRESH_INTERVAL + " above 0 (e.g. "
                    + "5000), or " + ShardingSettings.RESHARDING_AUTO_RESUME + "=false");
        }
        return mode;
    }

    private static long writePauseMillis(SessionFactoryImplementor sessionFactory) {
        Object value = sessionFactory.getProperties().get(ShardingSettings.RESHARDING_WRITE_PAUSE);
        if (value == null) {
            return ShardingSettings.DEFAULT_RESHARDING_WRITE_PAUSE;
        }
        try {
            long millis = Long.parseLong(value.toString().trim());
            if (millis < 0) {
                throw new NumberFormatException();
            }
            return millis;
        } catch (NumberFormatException e) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_WRITE_PAUSE
                    + "' has value '" + value + "', which is not a number of milliseconds >= 0. Fix: e.g. "
                    + ShardingSettings.RESHARDING_WRITE_PAUSE + "=" + ShardingSettings.DEFAULT_RESHARDING_WRITE_PAUSE);
        }
    }

    @Override
    public OwnershipFence fence() {
        return fence;
    }

    @Override
    public CachedShardDirectory directory() {
        return directory;
    }

    @Override
    public boolean shardsInProcess() {
        return config.topology().allEmbeddedH2();
    }

    @Override
    public StoppedOperations stoppedOperations() {
        return stoppedOperations;
    }

    @Override
    public PromotedBatches promotedBatches() {
        return promotedBatches;
    }

    @Override
    public ShardRouterImpl router() {
        return router;
    }

    @Override
    public KeyGenerators keyGenerators() {
        return keyGenerators;
    }

    public PerShardSchema schema() {
        return schema;
    }

    public ShardGuard guard() {
        return guard;
    }

    /** Hibernate's factory, once built. */
    public SessionFactoryImplementor sessionFactory() {
        return sessionFactory;
    }

    /**
     * The public facade.
     *
     * @throws IllegalStateException if the session factory has not finished booting
     */
    public ShardedSessionFactory facade() {
        if (facade == null) {
            throw new IllegalStateException("The sharded session factory has not finished booting");
        }
        return facade;
    }
}
