package org.atomicshards.hibernate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.atomicshards.hibernate.internal.connection.ShardConnectionProvider;
import org.atomicshards.hibernate.spi.SelectionPolicies;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;

/**
 * Builds a {@link ShardedSessionFactory} with Hibernate's native bootstrap. Every call writes one of the
 * {@link ShardingSettings} properties (or a Hibernate property), so the builder and {@code persistence.xml} share one
 * validation: {@link #build()} fails with a {@link ShardConfigurationException} naming the setting, the value and
 * the fix.
 */
public final class ShardedSessionFactoryBuilder {

    private final List<String> shardOrder = new ArrayList<>();
    private final Map<String, Object> settings = new LinkedHashMap<>();
    private final List<Class<?>> annotatedClasses = new ArrayList<>();

    ShardedSessionFactoryBuilder() {
    }

    /** Adds a physical shard with a JDBC URL and no credentials (e.g. embedded H2). */
    public ShardedSessionFactoryBuilder shard(String id, String jdbcUrl) {
        return shard(id, jdbcUrl, null, null);
    }

    /** Adds a physical shard with a JDBC URL, user and password. */
    public ShardedSessionFactoryBuilder shard(String id, String jdbcUrl, String user, String password) {
        shardOrder.add(id);
        String prefix = ShardingSettings.SHARD_PREFIX + id + ".";
        settings.put(prefix + "url", jdbcUrl);
        putIfNotNull(prefix + "user", user);
        putIfNotNull(prefix + "password", password);
        return this;
    }

    /**
     * Adds a read replica of shard {@code shardId} (a PostgreSQL standby or a MariaDB replica) with the
     * shard's user and password. Reads use it only where asked: {@link #readOnlyWorkOnReplicas}, or a fan-out's
     * {@link FanOutSettings#replicas()}.
     */
    public ShardedSessionFactoryBuilder replica(String shardId, String name, String jdbcUrl) {
        return replica(shardId, name, jdbcUrl, null, null);
    }

    /** Adds a read replica of shard {@code shardId} with its own user and password. */
    public ShardedSessionFactoryBuilder replica(String shardId, String name, String jdbcUrl, String user,
                                                String password) {
        String prefix = ShardingSettings.SHARD_PREFIX + shardId + ShardingSettings.REPLICA_INFIX + name + ".";
        settings.put(prefix + "url", jdbcUrl);
        putIfNotNull(prefix + "user", user);
        putIfNotNull(prefix + "password", password);
        return this;
    }

    /**
     * Sends read-only work to replicas within {@code maxLagMillis} of their primaries
     * ({@link ShardingSettings#REPLICA_READS}, {@link ShardingSettings#REPLICA_MAX_LAG}).
     */
    public ShardedSessionFactoryBuilder readOnlyWorkOnReplicas(long maxLagMillis) {
        settings.put(ShardingSettings.REPLICA_READS, true);
        settings.put(ShardingSettings.REPLICA_MAX_LAG, maxLagMillis);
        return this;
    }

    /** Sets the maximum pool size of one shard (default: {@code maxTotalConnections / shards}). */
    public ShardedSessionFactoryBuilder poolSize(String shardId, int size) {
        settings.put(ShardingSettings.SHARD_PREFIX + shardId + ".pool_size", size);
        return this;
    }

    /** Sets the default maximum pool size of every shard. */
    public ShardedSessionFactoryBuilder poolSize(int size) {
        settings.put(ShardingSettings.POOL_SIZE, size);
        return this;
    }

    /** Bounds the connections over all shard pools. */
    public ShardedSessionFactoryBuilder maxTotalConnections(int max) {
        settings.put(ShardingSettings.POOL_MAX_TOTAL, max);
        return this;
    }

    /** How long to wait for a connection before reporting a shard unavailable (at least 250 ms). */
    public ShardedSessionFactoryBuilder connectionTimeoutMillis(long millis) {
        settings.put(ShardingSettings.POOL_CONNECTION_TIMEOUT, millis);
        return this;
    }

    /** Sets the number of virtual shards (default 1024); fixed once the catalog exists. */
    public ShardedSessionFactoryBuilder virtualShards(int count) {
        settings.put(ShardingSettings.VIRTUAL_SHARDS, count);
        return this;
    }

    /** Assigns virtual shards {@code from..to} (inclusive) to {@code shardId} in the initial map. */
    public ShardedSessionFactoryBuilder assign(int from, int to, String shardId) {
        String entry = from + "-" + to + "=" + shardId;
        settings.merge(ShardingSettings.VIRTUAL_SHARD_MAP, entry, (a, b) -> a + "," + b);
        return this;
    }

    /** Uses the catalog database at {@code jdbcUrl} for the shard directory. */
    public ShardedSessionFactoryBuilder catalog(String jdbcUrl) {
        return catalog(jdbcUrl, null, null);
    }

    /** Uses the catalog database at {@code jdbcUrl} with credentials. */
    public ShardedSessionFactoryBuilder catalog(String jdbcUrl, String user, String password) {
        settings.put(ShardingSettings.CATALOG_URL, jdbcUrl);
        putIfNotNull(ShardingSettings.CATALOG_USER, user);
        putIfNotNull(ShardingSettings.CATALOG_PASSWORD, password);
        return this;
    }

    /**
     * Sets the policy of the atomic unit whose root is {@code root}: writes its settings ({@code policy}, the
     * selection's {@link SelectionPolicy#options() options}, {@code key_generation}, {@code access},
     * {@code combine}), so that they are validated at {@link #build()} like the same settings from a file. A
     * selection that is not registered yet is registered ({@link #selectionPolicy}).
     */
    public ShardedSessionFactoryBuilder policy(Class<?> root, Policy policy) {
        String prefix = ShardingSettings.UNIT_PREFIX + root.getName() + ".";
        SelectionPolicy selection = policy.selection();
        if (SelectionPolicies.builtIn().find(selection.name()).isEmpty()) {
            selectionPolicy(selection);
        }
        settings.put(prefix + "policy", selection.name());
        selection.options().forEach((option, value) -> settings.put(prefix + option, value));
        settings.put(prefix + "key_generation", policy.keyGeneration().name());
        settings.put(prefix + "access", policy.access().name());
        settings.put(prefix + "combine", policy.combine().name());
        return this;
    }

    /**
     * Registers a selection policy, so that units can name it in {@code atomicshards.unit.<Root>.policy}. Policies
     * listed in {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} need no registration.
     * Writes {@link ShardingSettings#SELECTION_POLICIES}.
     */
    public ShardedSessionFactoryBuilder selectionPolicy(SelectionPolicy policy) {
        Object registered = settings.get(ShardingSettings.SELECTION_POLICIES);
        List<Object> all = new ArrayList<>();
        if (registered instanceof Collection<?> collection) {
            all.addAll(collection);
        } else if (registered != null) {
            all.add(registered);
        }
        all.add(policy);
        settings.put(ShardingSettings.SELECTION_POLICIES, List.copyOf(all));
        return this;
    }

    /** The entity classes to map. */
    public ShardedSessionFactoryBuilder annotatedClasses(Class<?>... classes) {
        annotatedClasses.addAll(Arrays.asList(classes));
        return this;
    }

    /**
     * Runs a schema action on every shard at boot: {@code none}, {@code create}, {@code create-drop} (drops at
     * close), {@code update}, {@code validate} or {@code drop}.
     */
    public ShardedSessionFactoryBuilder schemaAction(String action) {
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, action);
        return this;
    }

    /** The executor, timeout, policy and fetch size of fan-out queries ({@link ShardedSessionFactory#fanOut()}). */
    public ShardedSessionFactoryBuilder fanOut(FanOutSettings fanOutSettings) {
        settings.put(FanOutSettings.SETTINGS, fanOutSettings);
        return this;
    }

    /**
     * Records the factory's meters in a Micrometer {@code io.micrometer.core.instrument.MeterRegistry} (see
     * {@link ShardingSettings#METER_REGISTRY}). Typed {@code Object}, as HikariCP's {@code setMetricRegistry}, so
     * this class loads without Micrometer; {@link #build()} rejects anything but a {@code MeterRegistry}.
     */
    public ShardedSessionFactoryBuilder meterRegistry(Object registry) {
        settings.put(ShardingSettings.METER_REGISTRY, registry);
        return this;
    }

    /** Sets any Hibernate or Atomic Shards property. */
    public ShardedSessionFactoryBuilder property(String name, Object value) {
        settings.put(name, value);
        return this;
    }

    /**
     * Validates the settings, boots Hibernate (one session factory), opens the shard directory and runs the schema
     * action on every shard.
     *
     * @throws ShardConfigurationException for invalid settings
     */
    public ShardedSessionFactory build() {
        Map<String, Object> all = new LinkedHashMap<>(settings);
        if (!shardOrder.isEmpty()) {
            all.put(ShardingSettings.SHARDS, String.join(",", shardOrder));
        }
        if (all.get(ShardingSettings.SHARDS) == null) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' is missing: no shard "
                    + "was configured. Fix: call shard(id, jdbcUrl) at least once");
        }
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder().applySettings(all).build();
        try {
            MetadataSources sources = new MetadataSources(registry);
            annotatedClasses.forEach(sources::addAnnotatedClass);
            SessionFactory sessionFactory = sources.buildMetadata().buildSessionFactory();
            return AtomicShards.from(sessionFactory);
        } catch (RuntimeException e) {
            RuntimeException reported = bootFailure(registry).orElse(e);
            if (reported != e) {
                reported.addSuppressed(e);
            }
            StandardServiceRegistryBuilder.destroy(registry);
            throw reported;
        }
    }

    private static Optional<RuntimeException> bootFailure(StandardServiceRegistry registry) {
        try {
            var provider = registry.getService(MultiTenantConnectionProvider.class);
            if (provider instanceof ShardConnectionProvider shardProvider) {
                return Optional.ofNullable(shardProvider.anyConnectionFailure());
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private void putIfNotNull(String key, Object value) {
        if (value != null) {
            settings.put(key, value);
        }
    }
}
