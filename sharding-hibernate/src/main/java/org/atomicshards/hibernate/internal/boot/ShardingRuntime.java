package org.atomicshards.hibernate.internal.boot;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.reshard.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.ShardAdminImpl;
import org.atomicshards.hibernate.internal.reshard.UnitOfWorkRetry;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.connection.ShardConnectionProvider;
import org.atomicshards.hibernate.internal.connection.ShardContextTenantResolver;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.guard.ShardGuard;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.atomicshards.hibernate.internal.session.ShardedSessionFactoryImpl;
import org.hibernate.boot.Metadata;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.spi.EventType;

/**
 * Everything one sharded session factory owns: the validated configuration, the shard pools and Hibernate's
 * connection provider and tenant resolver over them (created before the factory), then, once Hibernate has built the
 * factory, the directory, the unit model, the key generators, the guards' state and the public facade.
 */
public final class ShardingRuntime {

    private static final AtomicInteger FACTORY_COUNTER = new AtomicInteger();

    private final ShardingConfig config;
    private final String name;
    private final ShardPools pools;
    private final ShardConnectionProvider connectionProvider;
    private final ShardContextTenantResolver tenantResolver;
    private final ShardGuard guard = new ShardGuard();
    private volatile Catalog catalog;
    private volatile CachedShardDirectory directory;
    private volatile ShardRouterImpl router;
    private volatile KeyGenerators keyGenerators;
    private volatile PerShardSchema schema;
    private volatile ShardedSessionFactoryImpl facade;
    private volatile ExecutorService executor;
    private volatile OwnershipFence fence;
    private volatile UnitOfWorkRetry unitRetry;
    private volatile ShardAdminImpl admin;

    public ShardingRuntime(ShardingConfig config) {
        this(config, null);
    }

    /** @param metricsTrackerFactory given to every shard pool; null for none */
    public ShardingRuntime(ShardingConfig config, MetricsTrackerFactory metricsTrackerFactory) {
        this.config = config;
        this.name = "f" + FACTORY_COUNTER.incrementAndGet();
        this.pools = new ShardPools(config.topology(), name, config.timeouts(), metricsTrackerFactory);
        this.connectionProvider = new ShardConnectionProvider(pools, config.topology().shardIds(), this);
        this.tenantResolver = new ShardContextTenantResolver(config.defaultShard());
    }

    public ShardConnectionProvider connectionProvider() {
        return connectionProvider;
    }

    public ShardContextTenantResolver tenantResolver() {
        return tenantResolver;
    }

    public ShardingConfig config() {
        return config;
    }

    public ShardPools pools() {
        return pools;
    }

    /** Registers the guards as PRE_INSERT / PRE_UPDATE / PRE_DELETE / PRE_UPSERT / FLUSH_ENTITY listeners. */
    void registerGuards(SessionFactoryImplementor sessionFactory) {
        var registry = sessionFactory.getEventListenerRegistry();
        registry.appendListeners(EventType.PRE_INSERT, guard);
        registry.appendListeners(EventType.PRE_UPDATE, guard);
        registry.appendListeners(EventType.PRE_DELETE, guard);
        registry.appendListeners(EventType.PRE_UPSERT, guard);
        registry.appendListeners(EventType.FLUSH_ENTITY, guard);
    }

    /** Completes the runtime once Hibernate has built the session factory. */
    void start(SessionFactoryImplementor sessionFactory, Metadata metadata) {
        catalog = new Catalog(config.catalogUrl(), config.catalogUser(), config.catalogPassword(),
                "atomicshards-" + name + "-catalog", config.catalogOptions());
        try {
            directory = CachedShardDirectory.open(catalog, config.topology());
            router = new UnitModelBuilder(sessionFactory, config, directory).build();
            keyGenerators = new KeyGenerators(directory, config);
            guard.activate(router);
            schema = new PerShardSchema(metadata, sessionFactory, config.topology().shardIds(), pools,
                    config.catalogOptions().lockTimeoutMillis());
            fence = new OwnershipFence(pools, directory, catalog);
            unitRetry = new UnitOfWorkRetry(directory, writePauseMillis(sessionFactory));
            admin = new ShardAdminImpl(config.topology(), pools, directory, router, fence, catalog);
            facade = new ShardedSessionFactoryImpl(sessionFactory, this);
            schema.runAtBoot(config.schemaAction());
        } catch (RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    /**
     * Runs the create-drop drop on every shard and releases the fan-out executor, the access executor and the
     * catalog. Called once, while Hibernate's factory closes.
     */
    void closing() {
        try {
            if (facade != null) {
                facade.closeFanOut();
            }
            if (schema != null) {
                schema.runAtClose(config.schemaAction());
            }
        } finally {
            if (executor != null) {
                executor.shutdownNow();
            }
            if (catalog != null) {
                catalog.close();
            }
        }
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

    /** The ownership fence on the shards (online resharding). */
    public OwnershipFence fence() {
        return fence;
    }

    /** Re-runs units of work the fence turned away. */
    public UnitOfWorkRetry unitRetry() {
        return unitRetry;
    }

    /** The administration of online resharding. */
    public ShardAdminImpl admin() {
        return admin;
    }

    public CachedShardDirectory directory() {
        return directory;
    }

    public ShardRouterImpl router() {
        return router;
    }

    public KeyGenerators keyGenerators() {
        return keyGenerators;
    }

    public PerShardSchema schema() {
        return schema;
    }

    public ShardGuard guard() {
        return guard;
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

    /** The bounded executor for parallel access, one thread per shard at most, created on first use. */
    public ExecutorService executor() {
        ExecutorService current = executor;
        if (current == null) {
            synchronized (this) {
                if (executor == null) {
                    int threads = config.topology().shardIds().size();
                    AtomicInteger counter = new AtomicInteger();
                    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                            new LinkedBlockingQueue<>(), task -> {
                                Thread thread = new Thread(task, "atomicshards-" + name + "-access-" + counter.incrementAndGet());
                                thread.setDaemon(true);
                                return thread;
                            });
                    pool.allowCoreThreadTimeOut(true);
                    executor = pool;
                }
                current = executor;
            }
        }
        return current;
    }
}
